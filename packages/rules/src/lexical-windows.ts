import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';

/**
 * Neighbour windows: overlapping runs of consecutive documents of one sequence (a file, a
 * conversation), each scored as if it were one text. A dialog turn is often found through its
 * neighbours ("Where did she go?" is answered by the turn after it), so a backend adds the best
 * score of a window to each of its members.
 */
export interface WindowShape<Field extends string> {
  /** The field whose tokens windows score (its length and repeats are summed over the members). */
  readonly field: Field;
  /** Documents per window, 1 to 64. */
  readonly size: number;
  /** Positions between the starts of two windows, 1 to `size`; windows overlap by `size - stride`. */
  readonly stride: number;
}

/** Where a document sits in its sequence. */
export interface SequencePosition {
  /** The sequence, an integer from 0 to 2^21 − 1. A sequence lives in one block: its windows count in that block's totals. */
  readonly id: number;
  /** The document's place in it, an integer from 0 to 2^32 − 65. */
  readonly position: number;
}

/**
 * A window's key is `sequence × 2^32 + start`: one integer, so a window is a rowid of its table and
 * a JavaScript number (below 2^53) without a second column or a string key.
 */
const positionSpan = 2 ** 32;
const sequenceLimit = 2 ** 21;
const positionLimit = positionSpan - 64;

/** Checks a shape's numbers; a window size of 0 or a stride past the size would lose documents. */
export function checkWindowShape<Field extends string>(shape: WindowShape<Field>, fields: readonly Field[]): void {
  const problem = !fields.includes(shape.field)
    ? `the windows' field ${JSON.stringify(shape.field)} is not one of the index's fields`
    : !Number.isInteger(shape.size) || shape.size < 1 || shape.size > 64
      ? `the window size ${shape.size} is not an integer from 1 to 64`
      : !Number.isInteger(shape.stride) || shape.stride < 1 || shape.stride > shape.size
        ? `the window stride ${shape.stride} is not an integer from 1 to the size (${shape.size})`
        : undefined;
  if (problem !== undefined) throw new MemoryConfigurationError({ message: problem });
}

/** Refuses a sequence or position outside the key's range, naming the field. */
export function checkSequencePosition(sequence: SequencePosition): void {
  const issues = [];
  if (!Number.isInteger(sequence.id) || sequence.id < 0 || sequence.id >= sequenceLimit) issues.push({ path: 'sequence.id', message: `must be an integer from 0 to ${sequenceLimit - 1}` });
  if (!Number.isInteger(sequence.position) || sequence.position < 0 || sequence.position >= positionLimit) issues.push({ path: 'sequence.position', message: `must be an integer from 0 to ${positionLimit - 1}` });
  if (issues.length > 0) throw new MemoryValidationError({ target: 'lexical document', issues });
}

/** The key of the window of `sequence` that starts at `start`. */
export function windowKeyOf(sequence: number, start: number): number {
  return sequence * positionSpan + start;
}

/** The sequence and first position of a window key. */
export function windowOfKey(key: number): { sequence: number; start: number } {
  const sequence = Math.floor(key / positionSpan);
  return { sequence, start: key - sequence * positionSpan };
}

/** The keys of the windows that hold the document at `position` of `sequence`, first start first. */
export function windowKeysCovering(sequence: number, position: number, shape: { size: number; stride: number }): number[] {
  const keys: number[] = [];
  const last = Math.floor(position / shape.stride);
  const first = Math.max(0, Math.ceil((position - shape.size + 1) / shape.stride));
  for (let index = first; index <= last; index += 1) keys.push(windowKeyOf(sequence, index * shape.stride));
  return keys;
}

/** Documents joining (positive) or leaving (negative) one window, and their summed length. */
export interface WindowChange {
  readonly key: number;
  readonly block: number;
  readonly length: number;
  readonly members: number;
}

/** What an index writes for a batch of window changes. */
export interface WindowWrites {
  /** Windows to create, change or delete, with their new length and member count. */
  readonly rows: ReadonlyArray<{ readonly action: 'insert' | 'update' | 'delete'; readonly key: number; readonly block: number; readonly length: number; readonly members: number }>;
  /** The change of each block's window count and total window length. */
  readonly totals: ReadonlyMap<number, { readonly windows: number; readonly length: number }>;
}

/**
 * The writes of window changes against the windows' current rows (by key): a window is created
 * with its first member and deleted with its last, and leaving a window that does not exist
 * changes nothing. Every index keeps its windows with this one plan.
 */
export function planWindowWrites(current: ReadonlyMap<number, { length: number; members: number }>, changes: readonly WindowChange[]): WindowWrites {
  const rows: Array<WindowWrites['rows'][number]> = [];
  const totals = new Map<number, { windows: number; length: number }>();
  // Windows this batch already changed: the current rows are never copied (an index holds millions).
  const changed = new Map<number, { length: number; members: number } | undefined>();
  for (const change of changes) {
    const before = changed.has(change.key) ? changed.get(change.key) : current.get(change.key);
    const length = (before?.length ?? 0) + change.length;
    const members = (before?.members ?? 0) + change.members;
    if (before === undefined && members <= 0) continue;
    const sums = totals.get(change.block) ?? { windows: 0, length: 0 };
    totals.set(change.block, sums);
    sums.length += change.length;
    if (before === undefined) {
      rows.push({ action: 'insert', key: change.key, block: change.block, length, members });
      sums.windows += 1;
      changed.set(change.key, { length, members });
    } else if (members <= 0) {
      rows.push({ action: 'delete', key: change.key, block: change.block, length: 0, members: 0 });
      sums.windows -= 1;
      changed.set(change.key, undefined);
    } else {
      rows.push({ action: 'update', key: change.key, block: change.block, length, members });
      changed.set(change.key, { length, members });
    }
  }
  return { rows, totals };
}
