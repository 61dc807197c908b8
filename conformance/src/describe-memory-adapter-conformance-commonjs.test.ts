import { MemoryConfigurationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { describeMemoryAdapterConformance } from './describe-memory-adapter-conformance-commonjs';
import { VitestEntryFromCommonJsError } from './vitest-entry-from-commonjs-error';

describe('the vitest entry of the CommonJS build', () => {
  it('throws one typed configuration error that names the ES module import and the runner', () => {
    let thrown: unknown;
    try {
      describeMemoryAdapterConformance({ name: 'acme', createAdapter: () => ({}) as never });
    } catch (error) {
      thrown = error;
    }
    expect(VitestEntryFromCommonJsError.is(thrown)).toBe(true);
    expect(MemoryConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as MemoryConfigurationError).code).toBe('MEMORY_CONFIGURATION');
    expect((thrown as Error).message).toContain('require()');
    expect((thrown as Error).message).toContain("'@memplane/conformance/runner'");
    expect((thrown as Error).message).toContain('memplane-conformance CLI');
  });
});
