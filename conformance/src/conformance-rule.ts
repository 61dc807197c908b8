import type { MemoryAdapterCapabilities } from '@memplane/core';
import type { ConformanceOptions } from './conformance-options';
import type { RuleContext } from './rule-context';

/** The families of conformance rules. A rule id always starts with its family. */
export type RuleFamily =
  | 'scope'
  | 'provenance'
  | 'usage'
  | 'pagination'
  | 'forget'
  | 'capabilities'
  | 'validation'
  | 'errors'
  | 'extraction';

/** The families in the order the suite runs them. */
export const ruleFamilies: ReadonlyArray<RuleFamily> = [
  'capabilities',
  'scope',
  'provenance',
  'usage',
  'pagination',
  'forget',
  'validation',
  'errors',
  'extraction',
];

/**
 * Something a rule needs from the conformance options beyond the adapter.
 * - `faults`: a fault injector (`options.faults`);
 * - `peer`: a second adapter instance over the same backend (`options.createPeerAdapter`).
 *
 * A rule whose need is missing FAILS: a suite that silently passes because nobody wired the
 * fault injector proves nothing. Only the capability manifest skips rules (`requires`).
 */
export type RuleNeed = 'faults' | 'peer';

/** Where the adapter guide lives; a rule's `fix.guideSection` is an anchor of this page. */
export const adapterGuideUrl = 'https://github.com/memplane/memplane/blob/main/docs/writing-an-adapter.md';

/** How to fix an adapter that fails a rule. */
export interface RuleFixHint {
  /** What to change in the adapter, in a sentence or two addressed to its author. */
  hint: string;
  /**
   * The section of the adapter guide (`docs/writing-an-adapter.md`) that explains it: the anchor
   * GitHub gives the section's heading, such as `keyset-cursors`.
   */
  guideSection: string;
}

/** The link to a section of the adapter guide. */
export function adapterGuideLink(section: string): string {
  return `${adapterGuideUrl}#${section}`;
}

/**
 * One conformance rule: a plain object, independent of any test framework, so the same rule
 * runs under vitest (`describeMemoryAdapterConformance`) and under the CLI (`runConformance`).
 */
export interface ConformanceRule {
  /** The dotted id, starting with the family, such as `scope.isolation.companyId.query`. Stable across versions. */
  id: string;
  /** The family the rule belongs to. */
  family: RuleFamily;
  /** What the rule checks, as one sentence. */
  description: string;
  /**
   * Returns why the rule does not apply to this adapter (the skip reason), or undefined when it
   * applies. Reads only the declared capability manifest, never the adapter's behaviour.
   */
  requires?: (capabilities: MemoryAdapterCapabilities, options: ConformanceOptions) => string | undefined;
  /** How to fix an adapter that fails the rule; shown with the failure. Every rule of the suite has one. */
  fix?: RuleFixHint;
  /** What the rule needs from the options; a missing need fails the rule. */
  needs?: ReadonlyArray<RuleNeed>;
  /** Runs the checks. Throws (an `AssertionError` or the adapter's error) when the adapter does not conform. */
  run(context: RuleContext): Promise<void>;
}

/** A `requires` that applies the rule only when the adapter declares `flag`. */
export function whenDeclared(
  flag: keyof MemoryAdapterCapabilities,
): (capabilities: MemoryAdapterCapabilities) => string | undefined {
  return (capabilities) =>
    capabilities[flag] === true ? undefined : `the adapter does not declare capabilities.${flag}`;
}

/** A `requires` that applies the rule only when the adapter does NOT declare `flag`. */
export function whenNotDeclared(
  flag: keyof MemoryAdapterCapabilities,
): (capabilities: MemoryAdapterCapabilities) => string | undefined {
  return (capabilities) =>
    capabilities[flag] === true ? `the adapter declares capabilities.${flag}, so the surface must work instead` : undefined;
}

/** Combines several `requires`: the first skip reason wins. */
export function allOf(
  ...conditions: Array<(capabilities: MemoryAdapterCapabilities) => string | undefined>
): (capabilities: MemoryAdapterCapabilities) => string | undefined {
  return (capabilities) => {
    for (const condition of conditions) {
      const reason = condition(capabilities);
      if (reason !== undefined) return reason;
    }
    return undefined;
  };
}
