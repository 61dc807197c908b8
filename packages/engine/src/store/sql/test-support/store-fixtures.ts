import { tokenize } from '@memplane/rules';
import type { ItemRow, ResourceRow, ScopeValues, ServiceMetaRow, SegmentRow } from '../../engine-store-rows';

/** The scope fields the store tests use: a boundary field then two narrower ones. */
export const testScopeFields = ['companyId', 'projectId', 'agentId'] as const;

/** Service meta for the test scope schema (or another hash, to provoke a mismatch). */
export function testMeta(overrides: Partial<ServiceMetaRow> = {}): ServiceMetaRow {
  return {
    scopeSchemaHash: 'hash-of-company-project-agent',
    scopeFields: [...testScopeFields],
    boundaryFields: ['companyId'],
    ddlVersion: 1,
    taxonomyVersion: 'taxonomy-1',
    providerSummary: { metadataStore: 'test' },
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A full test scope. */
export function scopeOf(companyId: string, projectId = 'p1', agentId = 'a1'): ScopeValues {
  return { companyId, projectId, agentId };
}

let sequence = 0;

/** A unique id with a readable prefix. */
export function nextId(prefix: string): string {
  sequence += 1;
  return `${prefix}_${process.pid}_${sequence}`;
}

/** An item of `scope` with `text`, analysed like the engine does; fields can be overridden. */
export function testItem(scope: ScopeValues, text: string, overrides: Partial<ItemRow> = {}): ItemRow {
  sequence += 1;
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, sequence)).toISOString();
  return {
    id: nextId('item'),
    scope,
    text,
    kind: 'fact',
    status: 'approved',
    piiRisk: 0,
    confidence: 0.9,
    stability: 1,
    version: 1,
    evidence: [{ resourceId: 'res_1', start: 0, end: text.length, quote: text.slice(0, 40) }],
    categoryKeys: [],
    metadata: {},
    lexicalTokens: tokenize(text),
    textHash: `hash:${text}`,
    useCount: 0,
    scopeSchemaHash: 'hash-of-company-project-agent',
    taxonomyVersion: 'taxonomy-1',
    pipelineRevision: 1,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** A conversation resource with one segment per turn. */
export function testResource(scope: ScopeValues, turns: readonly string[], contentHash = nextId('hash')): { resource: ResourceRow; segments: SegmentRow[] } {
  const id = nextId('res');
  const content = turns.join('\n');
  let offset = 0;
  const segments = turns.map((text, ordinal): SegmentRow => {
    const segment = { id: `${id}_s${ordinal}`, resourceId: id, scope, ordinal, text, start: offset, end: offset + text.length, role: ordinal % 2 === 0 ? 'user' : 'assistant' };
    offset += text.length + 1;
    return segment;
  });
  const resource: ResourceRow = {
    id,
    scope,
    modality: 'conversation',
    content,
    metadata: { source: 'test' },
    contentHash,
    pipelineRevision: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  return { resource, segments };
}
