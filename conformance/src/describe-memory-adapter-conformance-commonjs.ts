import type { ConformanceOptions } from './conformance-options';
import { VitestEntryFromCommonJsError } from './vitest-entry-from-commonjs-error';

/**
 * The vitest entry as the CommonJS build of `@memplane/conformance` ships it (tsup swaps it in
 * for `describe-memory-adapter-conformance.ts`): vitest cannot be required, so this module never
 * loads it and the main entry stays `require()`-able. Calling it throws
 * `VitestEntryFromCommonJsError`, which names the ES module import and the runner.
 */
export function describeMemoryAdapterConformance(_options: ConformanceOptions): void {
  throw new VitestEntryFromCommonJsError();
}
