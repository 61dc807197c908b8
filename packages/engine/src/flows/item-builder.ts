import type { JsonValue } from '@memplane/core';
import type { EngineServices } from '../engine/engine-services';
import type { ItemEvidence, ItemKind, ItemRow, ItemStatus, ScopeValues } from '../store/engine-store-rows';
import { governItem } from '../taxonomy/item-governance';

/** What a new item is made of. */
export interface NewItemSource {
  readonly scope: ScopeValues;
  readonly kind: ItemKind;
  readonly text: string;
  readonly summary?: string | undefined;
  readonly confidence: number;
  readonly evidence: readonly ItemEvidence[];
  readonly metadata?: Readonly<Record<string, JsonValue>> | undefined;
  readonly origin?: JsonValue | undefined;
  readonly expiresAt?: string | undefined;
  readonly categoryKeys?: readonly string[] | undefined;
  readonly reviewedStatus?: ItemStatus | undefined;
}

/** A new item row with the taxonomy applied and governance stamps set (§10.1). */
export function buildItem(services: EngineServices, source: NewItemSource, now = services.now()): ItemRow {
  const metadata = source.metadata ?? {};
  const governed = governItem({ ...source, metadata }, now);
  return {
    id: services.newId('item'),
    scope: source.scope,
    text: source.text,
    summary: source.summary,
    kind: source.kind,
    status: governed.status,
    piiRisk: governed.piiRisk,
    confidence: source.confidence,
    stability: governed.stability,
    version: 1,
    evidence: source.evidence,
    categoryKeys: source.categoryKeys ?? [],
    metadata,
    ...(source.origin === undefined ? {} : { origin: source.origin }),
    lexicalTokens: governed.lexicalTokens,
    textHash: governed.textHash,
    useCount: 0,
    expiresAt: governed.expiresAt,
    scopeSchemaHash: services.scopeModel.hash,
    taxonomyVersion: services.taxonomyVersion,
    pipelineRevision: services.pipelineRevision,
    createdAt: now,
    updatedAt: now,
  };
}

/** The text embedded for an item: its text and summary. */
export function embeddingText(item: Pick<ItemRow, 'text' | 'summary'>): string {
  return item.summary === undefined ? item.text : `${item.text}\n${item.summary}`;
}
