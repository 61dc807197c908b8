import { isWellFormedText, jsonValueSchema, MemoryValidationError } from '@memplane/core';
import { memoryKinds } from '@memplane/rules';
import { z } from 'zod';
import { buildItem, embeddingText } from '../flows/item-builder';
import { describeModel } from '../profiles/llm-profiles';
import { embedTexts } from '../profiles/model-calls';
import type { ItemRow, ScopeValues } from '../store/engine-store-rows';
import { governItem } from '../taxonomy/item-governance';
import { routeItemToCategories } from './category-definitions';
import { addToCategories, refreshCategories } from './category-refresh';
import { deriveIntention, intentionChanged, nextIntentionRow } from './intention-builder';
import type { EngineServices } from './engine-services';
import type { ItemCorrection, ItemInput } from './memory-engine';

const wellFormed = 'must be well-formed Unicode (no lone surrogates)';
const text = z.string().min(1).max(100_000).refine(isWellFormedText, wellFormed);
const itemInputSchema = z.strictObject({
  text,
  summary: z.string().max(10_000).refine(isWellFormedText, wellFormed).optional(),
  kind: z.enum(memoryKinds).optional(),
  confidence: z.number().min(0).max(1).optional(),
  metadata: z.record(z.string(), jsonValueSchema).optional(),
  origin: jsonValueSchema.optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});
const correctionSchema = itemInputSchema.omit({ expiresAt: true, origin: true }).partial();

function parse<Value>(schema: z.ZodType<Value>, value: unknown, target: string, prefix: string): Value {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new MemoryValidationError({ target, issues: parsed.error.issues.map((issue) => ({ path: [prefix, ...issue.path].join('.'), message: issue.message })) });
}

async function indexVectors(services: EngineServices, scope: ScopeValues, items: readonly ItemRow[]): Promise<void> {
  const profile = services.embeddingProfile;
  if (profile === undefined || services.vectorIndex === undefined || items.length === 0) return;
  const { vectors } = await embedTexts(profile, items.map(embeddingText), undefined);
  const model = describeModel(profile.embeddingModel);
  await services.vectorIndex.upsert(items.map((item, index) => ({ itemId: item.id, scope, model, vector: vectors[index] as Float32Array })));
}

/**
 * Writes curated items (the taxonomy applied, categories routed) in one transaction. An item whose
 * normalised text matches a live item of the scope updates that item instead of adding a twin.
 */
export async function writeItems(services: EngineServices, scope: ScopeValues, inputs: readonly ItemInput[]): Promise<ItemRow[]> {
  const checked = parse(z.array(itemInputSchema).min(1).max(1000), inputs, 'items', 'items');
  const now = services.now();
  const embeddingModel = services.embeddingProfile === undefined || services.vectorIndex === undefined ? undefined : describeModel(services.embeddingProfile.embeddingModel);
  const rows = checked.map((input) => {
    const kind = input.kind ?? 'note';
    const row = buildItem(services, { scope, kind, text: input.text, summary: input.summary, confidence: input.confidence ?? 1, evidence: [], metadata: input.metadata as ItemRow['metadata'] | undefined, origin: input.origin as ItemRow['origin'], expiresAt: input.expiresAt }, now);
    return { ...row, categoryKeys: routeItemToCategories(services.categories, kind, row.lexicalTokens), embeddingModel };
  });
  return services.store.transaction(async (tx) => {
    const existing = await tx.findItemsByTextHash(scope, rows.map((row) => row.textHash));
    const live = new Map(existing.filter((item) => item.mergedInto === undefined && item.status !== 'rejected').map((item) => [item.textHash, item.id]));
    // One row per input, in input order; a later twin in the batch or the scope wins, like a second write.
    const byId = new Map<string, ItemRow>();
    const resultIds: string[] = [];
    const inserted = new Set<string>();
    const touched = new Set<string>();
    for (const row of rows) {
      for (const key of row.categoryKeys) touched.add(key);
      const twinId = live.get(row.textHash);
      if (twinId === undefined) {
        byId.set(row.id, row);
        inserted.add(row.id);
        live.set(row.textHash, row.id);
        resultIds.push(row.id);
        continue;
      }
      if (inserted.has(twinId)) {
        const twin = byId.get(twinId) as ItemRow;
        byId.set(twinId, { ...row, id: twin.id, createdAt: twin.createdAt });
        resultIds.push(twinId);
        continue;
      }
      const current = byId.get(twinId) ?? (await tx.getItems(scope, [twinId])).get(twinId);
      if (current === undefined) continue;
      for (const key of current.categoryKeys) touched.add(key);
      const updated = await tx.updateItem(scope, twinId, current.version, {
        text: row.text, summary: row.summary, metadata: row.metadata, origin: row.origin, kind: row.kind, confidence: row.confidence, status: row.status,
        piiRisk: row.piiRisk, stability: row.stability, expiresAt: row.expiresAt, textHash: row.textHash, lexicalTokens: row.lexicalTokens,
        categoryKeys: row.categoryKeys, taxonomyVersion: row.taxonomyVersion, pipelineRevision: row.pipelineRevision, updatedAt: now,
      });
      if (updated !== undefined) byId.set(twinId, updated);
      resultIds.push(twinId);
    }
    const fresh = [...inserted].map((id) => byId.get(id) as ItemRow);
    await tx.insertItems(fresh);
    // Only inserts: the categories grow by the batch; a rewritten twin may change counts, so they are recomputed.
    if (fresh.length === resultIds.length) await addToCategories(tx, services, scope, fresh);
    else await refreshCategories(tx, services, scope, touched);
    await indexVectors(services, scope, fresh);
    return resultIds.map((id) => byId.get(id) as ItemRow);
  });
}

/** Corrects an item: the fields given change (one given as undefined stays), the taxonomy is applied again, the version goes up by one. */
export async function correctItem(services: EngineServices, scope: ScopeValues, itemId: string, correction: ItemCorrection): Promise<ItemRow | undefined> {
  const patch = parse(correctionSchema, correction, 'correction', 'correction');
  return services.store.transaction(async (tx) => {
    const current = (await tx.getItems(scope, [itemId])).get(itemId);
    if (current === undefined) return undefined;
    const now = services.now();
    // A field given as undefined is not part of the correction: it keeps its current value.
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as typeof patch;
    const next = { ...current, ...changes, metadata: (changes.metadata as ItemRow['metadata'] | undefined) ?? current.metadata };
    const governed = governItem({ ...next, reviewedStatus: current.status === 'rejected' ? 'rejected' : undefined }, now);
    const categoryKeys = routeItemToCategories(services.categories, next.kind, governed.lexicalTokens);
    const updated = await tx.updateItem(scope, itemId, current.version, {
      text: next.text,
      summary: next.summary,
      kind: next.kind,
      confidence: next.confidence,
      metadata: next.metadata,
      status: governed.status,
      piiRisk: governed.piiRisk,
      stability: governed.stability,
      expiresAt: next.kind === 'todo' ? (current.expiresAt ?? governed.expiresAt) : undefined,
      textHash: governed.textHash,
      lexicalTokens: governed.lexicalTokens,
      categoryKeys,
      taxonomyVersion: services.taxonomyVersion,
      pipelineRevision: services.pipelineRevision,
      updatedAt: now,
    });
    await refreshCategories(tx, services, scope, new Set([...current.categoryKeys, ...categoryKeys]));
    if (updated !== undefined) await indexVectors(services, scope, [updated]);
    return updated;
  });
}

/** A reviewer's decision. Approval is refused while the item holds raw PII (risk 2): the rule holds on every path. */
export async function reviewItem(services: EngineServices, scope: ScopeValues, itemId: string, decision: 'approved' | 'rejected'): Promise<ItemRow | undefined> {
  if (decision !== 'approved' && decision !== 'rejected') {
    throw new MemoryValidationError({ target: 'review', issues: [{ path: 'decision', message: 'must be approved or rejected' }] });
  }
  return services.store.transaction(async (tx) => {
    const current = (await tx.getItems(scope, [itemId])).get(itemId);
    if (current === undefined) return undefined;
    if (decision === 'approved' && current.piiRisk >= 2) {
      throw new MemoryValidationError({ target: 'review', issues: [{ path: 'decision', message: 'an item with raw PII (risk 2) cannot be approved; correct it first' }] });
    }
    const updated = await tx.updateItem(scope, itemId, current.version, { status: decision, updatedAt: services.now() });
    await refreshCategories(tx, services, scope, new Set(current.categoryKeys));
    return updated;
  });
}

/**
 * Forgets items: their rows, their vectors, and the resources (with segments) they were extracted
 * from, since a resource holds the same words. Items merged into a forgotten item go too.
 */
export async function forgetItems(services: EngineServices, scope: ScopeValues, itemIds: readonly string[]): Promise<string[]> {
  return services.store.transaction(async (tx) => {
    const found = [...(await tx.getItems(scope, itemIds)).values()];
    const range = Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));
    const wanted = new Set(found.map((item) => item.id));
    const followers = (await tx.listItems(range, { excludeMerged: false }, { limit: 100_000 })).filter((item) => item.mergedInto !== undefined && wanted.has(item.mergedInto));
    const all = [...found, ...followers];
    const resources = new Set(all.flatMap((item) => item.evidence.map((evidence) => evidence.resourceId)));
    for (const resourceId of resources) await tx.deleteResource(scope, resourceId);
    const deleted = await tx.deleteItems(scope, all.map((item) => item.id));
    await services.vectorIndex?.remove(scope, deleted);
    await refreshCategories(tx, services, scope, new Set(all.flatMap((item) => item.categoryKeys)));
    // Intentions hold copies of item text: the versions citing a forgotten item go, and the current one is derived again.
    if ((await tx.deleteIntentionsCiting(scope, deleted)) > 0) {
      const content = await deriveIntention(tx, services, scope);
      const latest = await tx.getLatestIntention(scope);
      if (intentionChanged(latest, content)) await tx.insertIntention(nextIntentionRow(services, scope, latest, content));
    }
    return deleted.filter((id) => wanted.has(id));
  });
}
