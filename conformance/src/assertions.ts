import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { MemoryError, MemoryValidationError, type MemorySnippet } from '@memplane/core';
import { previewJson } from './json-preview';
import { describeDifferences } from './value-differences';

/**
 * A JSON preview of a value for failure messages, in about `maximumLength` characters: always
 * valid JSON, never cut inside a value; fields and items that do not fit are left out whole and
 * counted (see `previewJson`).
 */
export function preview(value: unknown, maximumLength = 500): string {
  return previewJson(value, maximumLength);
}

/** Describes a thrown value for failure messages: its class, code and message. */
export function describeError(error: unknown): string {
  if (MemoryError.isInstance(error)) return `${error.name} (${error.code}): ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `a non-error value ${preview(error)}`;
}

/** What an expected error looks like. */
export interface ErrorExpectation<Expected> {
  /** The name used in the failure message, such as `InvalidCursorError`. */
  name: string;
  /** Recognises the error; use the marker-based `isInstance` of core's error classes. */
  matches: (error: unknown) => error is Expected;
}

/**
 * Runs `call` and returns the error it throws. Fails with a message naming `action` and the
 * expected error when it resolves or throws something else.
 */
export async function expectRejection<Expected>(
  action: string,
  call: () => Promise<unknown>,
  expectation: ErrorExpectation<Expected>,
): Promise<Expected> {
  let value: unknown;
  try {
    value = await call();
  } catch (error) {
    assert.ok(
      expectation.matches(error),
      `Expected ${action} to throw ${expectation.name}, but it threw ${describeError(error)}.`,
    );
    return error;
  }
  return assert.fail(`Expected ${action} to throw ${expectation.name}, but it resolved with ${preview(value)}.`);
}

/** Fails at once with `message`. */
export function fail(message: string): never {
  return assert.fail(message);
}

/** Fails with `message` unless `condition` holds. */
export function expectTrue(condition: unknown, message: string): asserts condition {
  assert.ok(condition, message);
}

/** An AssertionError with exactly `message` (node appends a diff otherwise) that keeps actual and expected for diffs. */
function assertionError(message: string, actual: unknown, expected: unknown, operator: string): assert.AssertionError {
  const error = new assert.AssertionError({ message, actual, expected, operator });
  error.message = message;
  return error;
}

/**
 * Fails unless `actual` deep-equals `expected` (strict), naming both and then each field that
 * differs with its expected and actual value (`source.issueId: expected "issue-1", got nothing`).
 * The error keeps `actual` and `expected`, so vitest still shows a diff.
 */
export function expectDeepEqual(actual: unknown, expected: unknown, what: string): void {
  if (isDeepStrictEqual(actual, expected)) return;
  const structured = typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null;
  const differences = structured ? describeDifferences(actual, expected) : [];
  const detail = differences.length === 0 ? '' : ` Differs at ${differences.join('; ')}.`;
  throw assertionError(`Expected ${what} to equal ${preview(expected)}, but got ${preview(actual)}.${detail}`, actual, expected, 'deepStrictEqual');
}

/** Fails unless `actual === expected`. */
export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (Object.is(actual, expected)) return;
  throw assertionError(`Expected ${what} to be ${preview(expected)}, but got ${preview(actual)}.`, actual, expected, 'strictEqual');
}

/** Whether a snippet carries `marker` in its text, summary or metadata. */
export function hasMarker(snippet: MemorySnippet, marker: string): boolean {
  return (
    snippet.text.includes(marker) ||
    (snippet.summary?.includes(marker) ?? false) ||
    (snippet.metadata !== undefined && JSON.stringify(snippet.metadata).includes(marker))
  );
}

/** The snippets that carry `marker`. */
export function withMarker(snippets: ReadonlyArray<MemorySnippet>, marker: string): MemorySnippet[] {
  return snippets.filter((snippet) => hasMarker(snippet, marker));
}

/** Fails unless some snippet carries `marker`. `where` names the read, such as `query in company A`. */
export function expectMarkerFound(snippets: ReadonlyArray<MemorySnippet>, marker: string, where: string): MemorySnippet {
  const found = withMarker(snippets, marker)[0];
  assert.ok(
    found !== undefined,
    `Expected ${where} to return the record marked ${marker}, but it was not among the ${snippets.length} results ${preview(snippets.map((snippet) => snippet.text))}.`,
  );
  return found;
}

/** Fails when any snippet carries `marker`. */
export function expectMarkerAbsent(snippets: ReadonlyArray<MemorySnippet>, marker: string, where: string): void {
  const leaked = withMarker(snippets, marker);
  assert.ok(
    leaked.length === 0,
    `Expected ${where} NOT to return the record marked ${marker}, but it returned ${leaked.length}: ${preview(leaked)}.`,
  );
}

/** Fails unless the snippet list is empty. */
export function expectNoSnippets(snippets: ReadonlyArray<MemorySnippet>, where: string): void {
  assert.ok(
    snippets.length === 0,
    `Expected ${where} to return no records, but it returned ${snippets.length}: ${preview(snippets)}.`,
  );
}

/** Fails unless `error` is a `MemoryValidationError` whose `field` is `field`. */
export function expectValidationField(error: MemoryValidationError, field: string, action: string): void {
  expectTrue(
    error.field === field,
    `Expected the MemoryValidationError of ${action} to name the field ${preview(field)}, but it named ${preview(error.field)} (${error.message}).`,
  );
}

/** The expected error of a validation failure. */
export const validationError: ErrorExpectation<MemoryValidationError> = {
  name: 'MemoryValidationError',
  matches: MemoryValidationError.isInstance,
};

/** Recognises any memplane error (`MemoryError`), from any copy of `@memplane/core`. */
export const anyMemoryError: ErrorExpectation<MemoryError> = {
  name: 'a MemoryError (a typed error from @memplane/core)',
  matches: MemoryError.isInstance,
};

/** The assertion helpers, as one object on the rule context for rules written outside this package. */
export const conformanceAssertions = {
  preview,
  describeError,
  fail,
  expectRejection,
  expectTrue,
  expectDeepEqual,
  expectEqual,
  hasMarker,
  withMarker,
  expectMarkerFound,
  expectMarkerAbsent,
  expectNoSnippets,
  expectValidationField,
  validationError,
  anyMemoryError,
};
