/**
 * Test-only conformance module: one export per deliberately broken variant of the reference
 * adapter, so the CLI test can run `memplane conformance <this file> --export <variant>` on each.
 */
import { MemoryConfigurationError, type MemoryAdapter } from '@memplane/core';
import { createAdapter as createReferenceAdapter, faults } from '../../../../adapters/memory/conformance-entry';
import { brokenVariants } from '../../../../conformance/src/__fixtures__/broken-adapters/index';

export { faults };

function variantFactory(name: string): () => MemoryAdapter {
  const variant = brokenVariants.find((candidate) => candidate.name === name);
  if (variant === undefined) throw new MemoryConfigurationError({ message: `No broken variant named ${name}.` });
  return () => variant.breaker(createReferenceAdapter());
}

export const leaksOtherCompanies = variantFactory('leaks-other-companies');
export const ignoresAgentScope = variantFactory('ignores-agent-scope');
export const ignoresAgentOnList = variantFactory('ignores-agent-on-list');
export const ignoresAgentOnListWrapped = variantFactory('ignores-agent-on-list-wrapped');
export const getIgnoresAgent = variantFactory('get-ignores-agent');
export const forgetIgnoresAgent = variantFactory('forget-ignores-agent');
export const correctIgnoresAgent = variantFactory('correct-ignores-agent');
export const dropsRecordBetweenPages = variantFactory('drops-record-between-pages');
export const acceptsForeignCursors = variantFactory('accepts-foreign-cursors');
export const losesProvenance = variantFactory('loses-provenance');
export const dropsSummary = variantFactory('drops-summary');
export const correctReplacesRecord = variantFactory('correct-replaces-record');
export const inventsUsageCounters = variantFactory('invents-usage-counters');
export const forgetDoesNotStick = variantFactory('forget-does-not-stick');
export const claimsCorrectionItLacks = variantFactory('claims-correction-it-lacks');
export const hidesProfileItHas = variantFactory('hides-profile-it-has');
export const writesBeforeValidating = variantFactory('writes-before-validating');
export const rateLimitAsGenericError = variantFactory('rate-limit-as-generic-error');
export const extractionNeverFinishes = variantFactory('extraction-never-finishes');
export const retryDoesNothing = variantFactory('retry-does-nothing');
