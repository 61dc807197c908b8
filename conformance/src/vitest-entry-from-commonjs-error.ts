import { MemoryConfigurationError } from '@memplane/core';

/**
 * What `describeMemoryAdapterConformance` throws when it was loaded with `require()`. vitest
 * refuses to be loaded by `require()`, so the CommonJS build of the main entry does not import
 * it: everything else of the main entry works from CommonJS, and this error says where to go.
 */
export class VitestEntryFromCommonJsError extends MemoryConfigurationError {
  constructor() {
    super({
      message:
        "describeMemoryAdapterConformance was loaded with require(), but vitest can only be imported from an ES module. Import '@memplane/conformance' from an ES module (a vitest test file written with import is one), or run the rules from CommonJS with runConformance from '@memplane/conformance/runner' or the memplane-conformance CLI.",
    });
  }

  /** Whether `error` is this error (by class; the CommonJS build throws it itself). */
  static is(error: unknown): error is VitestEntryFromCommonJsError {
    return error instanceof VitestEntryFromCommonJsError;
  }
}
