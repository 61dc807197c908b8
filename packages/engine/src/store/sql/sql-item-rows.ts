import type { JsonValue } from '@memplane/core';
import type { ItemEvidence, ItemKind, ItemPatch, ItemRow, ItemStatus, PiiRisk } from '../engine-store-rows';
import type { SqlDialect } from './sql-dialect';
import { quoteIdentifier } from './sql-dialect';
import { readScope } from './sql-scope-clause';

/** The engine columns of `items` after the scope columns, in insert order. */
export const itemColumns = [
  'id', 'text', 'summary', 'kind', 'status', 'pii_risk', 'confidence', 'stability', 'version', 'evidence', 'category_keys', 'metadata',
  'text_hash', 'lexical_tokens', 'token_count', 'use_count', 'last_used_at', 'expires_at', 'merged_into', 'embedding_model', 'scope_schema_hash', 'taxonomy_version',
  'pipeline_revision', 'created_at', 'updated_at', 'origin',
] as const;

const nullable = (value: unknown) => (value === undefined ? null : value);

/** The parameters of one item, scope first, in `itemColumns` order. */
export function itemParams(dialect: SqlDialect, fields: readonly string[], item: ItemRow): unknown[] {
  return [
    ...fields.map((field) => item.scope[field]),
    item.id, item.text, nullable(item.summary), item.kind, item.status, item.piiRisk, item.confidence, item.stability, item.version,
    dialect.writeJson(item.evidence), dialect.writeJson(item.categoryKeys), dialect.writeJson(item.metadata), item.textHash,
    dialect.writeJson(item.lexicalTokens), item.lexicalTokens.length, item.useCount, nullable(item.lastUsedAt), nullable(item.expiresAt),
    nullable(item.mergedInto), nullable(item.embeddingModel), item.scopeSchemaHash, item.taxonomyVersion, item.pipelineRevision,
    item.createdAt, item.updatedAt, item.origin === undefined ? null : dialect.writeJson(item.origin),
  ];
}

const optional = <T>(value: unknown): T | undefined => (value === null || value === undefined ? undefined : (value as T));

/** An item as stored, read back. */
export function readItem(dialect: SqlDialect, fields: readonly string[], row: Record<string, unknown>): ItemRow {
  return {
    id: String(row.id),
    scope: readScope(fields, row),
    text: String(row.text),
    summary: optional<string>(row.summary),
    kind: row.kind as ItemKind,
    status: row.status as ItemStatus,
    piiRisk: Number(row.pii_risk) as PiiRisk,
    confidence: Number(row.confidence),
    stability: Number(row.stability),
    version: Number(row.version),
    evidence: dialect.readJson<ItemEvidence[]>(row.evidence),
    categoryKeys: dialect.readJson<string[]>(row.category_keys),
    metadata: dialect.readJson<Record<string, JsonValue>>(row.metadata),
    textHash: String(row.text_hash),
    lexicalTokens: dialect.readJson<string[]>(row.lexical_tokens),
    useCount: Number(row.use_count),
    lastUsedAt: optional<string>(row.last_used_at),
    expiresAt: optional<string>(row.expires_at),
    mergedInto: optional<string>(row.merged_into),
    embeddingModel: optional<string>(row.embedding_model),
    scopeSchemaHash: String(row.scope_schema_hash),
    taxonomyVersion: String(row.taxonomy_version),
    pipelineRevision: Number(row.pipeline_revision),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    ...(row.origin === null || row.origin === undefined ? {} : { origin: dialect.readJson<JsonValue>(row.origin) }),
  };
}

/** The columns an update may change; `optional` ones are cleared by a key given as `undefined`, the others left as they are. */
const patchColumns: Record<keyof ItemPatch, { column: string; json?: boolean; optional?: boolean }> = {
  text: { column: 'text' },
  summary: { column: 'summary', optional: true },
  kind: { column: 'kind' },
  status: { column: 'status' },
  piiRisk: { column: 'pii_risk' },
  confidence: { column: 'confidence' },
  stability: { column: 'stability' },
  evidence: { column: 'evidence', json: true },
  categoryKeys: { column: 'category_keys', json: true },
  metadata: { column: 'metadata', json: true },
  origin: { column: 'origin', json: true },
  textHash: { column: 'text_hash' },
  lexicalTokens: { column: 'lexical_tokens', json: true },
  expiresAt: { column: 'expires_at', optional: true },
  mergedInto: { column: 'merged_into', optional: true },
  embeddingModel: { column: 'embedding_model', optional: true },
  taxonomyVersion: { column: 'taxonomy_version' },
  pipelineRevision: { column: 'pipeline_revision' },
  updatedAt: { column: 'updated_at' },
};

/** The SET list of an item update. A key present with `undefined` clears an optional column and leaves a required one unchanged. */
export function itemPatchSet(dialect: SqlDialect, patch: ItemPatch): { sql: string; params: unknown[] } {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const key of Object.keys(patch) as Array<keyof ItemPatch>) {
    const spec = patchColumns[key];
    if (spec === undefined) continue;
    const value = patch[key];
    if (value === undefined && spec.optional !== true) continue;
    sets.push(`${quoteIdentifier(spec.column)} = ?`);
    params.push(value === undefined ? null : spec.json === true ? dialect.writeJson(value) : value);
  }
  if (patch.lexicalTokens !== undefined) {
    sets.push(`${quoteIdentifier('token_count')} = ?`);
    params.push(patch.lexicalTokens.length);
  }
  sets.push(`${quoteIdentifier('version')} = ${quoteIdentifier('version')} + 1`);
  return { sql: sets.join(', '), params };
}
