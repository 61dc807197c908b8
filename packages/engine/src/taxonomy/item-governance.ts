import type { JsonValue } from '@memplane/core';
import { initialStatus, meetsKindThreshold, piiRiskOf, tokenize } from '@memplane/rules';
import { sha256Hex } from '../support/canonical-hash';
import type { ItemKind, ItemRow, ItemStatus, PiiRisk } from '../store/engine-store-rows';

/** The version of the taxonomy rules items are written under (kinds, thresholds, status workflow). */
export const taxonomyRulesVersion = 'memplane-taxonomy-1';

/** How stable each kind starts (§ taxonomy "Persistence"): permanent kinds at 1, hypotheses low. */
export const initialStabilityOfKind: Readonly<Record<ItemKind, number>> = {
  profile: 1,
  constraint: 1,
  preference: 0.9,
  goal: 0.8,
  project: 0.8,
  decision: 0.8,
  keyword_set: 0.8,
  note: 0.7,
  fact: 0.7,
  todo: 0.6,
  hypothesis: 0.4,
};

/** Days until a todo expires when the extractor gave no `expiresAt`. */
export const defaultTodoLifetimeDays = 14;
/** Days for an unused fact to lose half its stability; each use adds as much again. */
export const factHalfLifeDays = 30;

/** What the governance rules need of an item being written. */
export interface GovernedContent {
  readonly text: string;
  readonly summary?: string | undefined;
  readonly metadata: Readonly<Record<string, JsonValue>>;
  readonly kind: ItemKind;
  readonly confidence: number;
  readonly expiresAt?: string | undefined;
  /** A decision a reviewer already made; `rejected` survives every rewrite. */
  readonly reviewedStatus?: ItemStatus | undefined;
}

/** The fields the rules decide. */
export interface GovernedFields {
  readonly status: ItemStatus;
  readonly piiRisk: PiiRisk;
  readonly stability: number;
  readonly expiresAt: string | undefined;
  readonly textHash: string;
  readonly lexicalTokens: readonly string[];
}

/** The normalised text whose hash finds exact duplicates: NFKC, lowercase, single spaces. */
export function normaliseForHash(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Whether an extracted candidate clears its kind's confidence threshold (below it, it is not stored). */
export function acceptsCandidate(kind: ItemKind, confidence: number): boolean {
  return meetsKindThreshold(kind, confidence);
}

/**
 * Applies the taxonomy to an item on any write path (memorize, upsert, correction, merge): PII
 * risk of everything a reader sees, status (approved at confidence ≥ 0.60 and PII risk < 2, else
 * pending; a rejection stands; an approval by a reviewer stands unless raw PII appears), the
 * starting stability of the kind, and `expiresAt` for todos.
 */
export function governItem(content: GovernedContent, now: string): GovernedFields {
  const piiRisk = piiRiskOf({ text: content.text, summary: content.summary, metadata: content.metadata as Record<string, unknown> });
  let status: ItemStatus;
  if (content.reviewedStatus === 'rejected') status = 'rejected';
  else if (content.reviewedStatus === 'approved' && piiRisk < 2) status = 'approved';
  else status = initialStatus(content.confidence, piiRisk) === 'approved' ? 'approved' : 'pending';
  let expiresAt = content.expiresAt;
  if (content.kind === 'todo' && expiresAt === undefined) {
    expiresAt = new Date(Date.parse(now) + defaultTodoLifetimeDays * 86_400_000).toISOString();
  }
  return {
    status,
    piiRisk,
    stability: initialStabilityOfKind[content.kind],
    expiresAt,
    textHash: sha256Hex(normaliseForHash(content.text)),
    lexicalTokens: tokenize(content.summary === undefined ? content.text : `${content.text}\n${content.summary}`),
  };
}

/**
 * The stability of an item now. Facts decay: an unused fact halves every {@link factHalfLifeDays}
 * since it was last used (or written), and each use lengthens the half-life by as much again.
 * Other kinds keep their stability.
 */
export function effectiveStability(item: Pick<ItemRow, 'kind' | 'stability' | 'useCount' | 'lastUsedAt' | 'createdAt'>, now: string): number {
  if (item.kind !== 'fact') return item.stability;
  const since = Date.parse(item.lastUsedAt ?? item.createdAt);
  const ageDays = Math.max(0, (Date.parse(now) - since) / 86_400_000);
  const halfLife = factHalfLifeDays * (1 + item.useCount);
  return item.stability * 0.5 ** (ageDays / halfLife);
}

/** A quote is evidence a reader sees: it is kept only when it holds no raw PII. */
export function safeQuote(quote: string | undefined): string | undefined {
  if (quote === undefined) return undefined;
  const trimmed = quote.length > 500 ? quote.slice(0, 500) : quote;
  return piiRiskOf({ text: trimmed }) >= 2 ? undefined : trimmed;
}
