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
