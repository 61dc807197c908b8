/**
 * The 11 memory kinds of the taxonomy (`memory-type-taxonomy.md`): user memory (`profile`,
 * `preference`, `goal`, `constraint`, `project`), episodic memory (`fact`, `decision`,
 * `hypothesis`, `todo`) and workspace memory (`keyword_set`, `note`).
 */
export const memoryKinds = [
  'profile',
  'preference',
  'goal',
  'constraint',
  'project',
  'fact',
  'decision',
  'hypothesis',
  'todo',
  'keyword_set',
  'note',
] as const;

/** One memory kind. */
export type MemoryKind = (typeof memoryKinds)[number];

/**
 * The review status of a memory item. Only `approved` items are returned by `query`;
 * `superseded` items are earlier versions kept as history by `correct`.
 */
export type MemoryItemStatus = 'approved' | 'pending' | 'rejected' | 'superseded';

/** The statuses a section may carry. */
export const memoryItemStatuses: ReadonlyArray<MemoryItemStatus> = ['approved', 'pending', 'rejected', 'superseded'];

/**
 * The confidence threshold of each kind. An extracted candidate below its kind's threshold
 * is not stored at all: the extractor is not sure enough it is that kind of memory.
 */
export const kindConfidenceThresholds: Readonly<Record<MemoryKind, number>> = {
  profile: 0.85,
  preference: 0.72,
  goal: 0.68,
  constraint: 0.62,
  project: 0.7,
  fact: 0.65,
  decision: 0.7,
  hypothesis: 0.5,
  todo: 0.58,
  keyword_set: 0.75,
  note: 0.6,
};

/** The confidence at or above which an item is approved without review (when its PII risk allows). */
export const approvalConfidence = 0.6;

/** The PII risk of a text: 0 none, 1 possible (redacted or masked patterns), 2 raw PII found. */
export type PiiRisk = 0 | 1 | 2;

/** Whether a value is one of the 11 kinds. */
export function isMemoryKind(value: unknown): value is MemoryKind {
  return typeof value === 'string' && (memoryKinds as ReadonlyArray<string>).includes(value);
}

/**
 * The status workflow of the taxonomy: an item is `approved` when its confidence is at least
 * 0.60 and its PII risk is below 2; otherwise it is `pending` until a person reviews it
 * (in whatever form the store gives reviewers).
 */
export function initialStatus(confidence: number, piiRisk: PiiRisk): MemoryItemStatus {
  return confidence >= approvalConfidence && piiRisk < 2 ? 'approved' : 'pending';
}

/** Whether an extracted candidate is confident enough to be stored as its kind. */
export function meetsKindThreshold(kind: MemoryKind, confidence: number): boolean {
  return confidence >= kindConfidenceThresholds[kind];
}
