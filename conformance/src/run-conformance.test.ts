import { AssertionError } from 'node:assert/strict';
import { MemoryValidationError } from '@memplane/core';
import type { MemoryAdapterFaults } from '@memplane/memory';
import { describe, expect, it } from 'vitest';
import { referenceOptions } from './__fixtures__/broken-adapters/reference-options';
import { AdapterFactoryError, NotAMemoryAdapterError } from './assert-memory-adapter';
import type { ConformanceOptions } from './conformance-options';
import type { ConformanceRule } from './conformance-rule';
import { runConformance, runRules } from './run-conformance';

const reference = (overrides: Partial<ConformanceOptions> = {}): ConformanceOptions => ({
  ...referenceOptions('@memplane/memory'),
  ...overrides,
});

async function validationFieldOf(options: unknown): Promise<string> {
  const error = await runConformance(options as ConformanceOptions).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(MemoryValidationError.isInstance(error)).toBe(true);
  return (error as MemoryValidationError).field;
}

describe('runConformance options', () => {
  it('refuses a skip list: only the capability manifest skips rules', async () => {
    expect(await validationFieldOf({ ...reference(), skip: { errors: 'the sandbox cannot fake 429s' } })).toBe('skip');
  });

  it('refuses options without createAdapter, an empty name, a bad only prefix and a bad fault injector', async () => {
    const { createAdapter: _missing, ...withoutFactory } = reference();
    expect(await validationFieldOf(withoutFactory)).toBe('createAdapter');
    expect(await validationFieldOf(reference({ name: '' }))).toBe('name');
    expect(await validationFieldOf(reference({ only: ['scope', 'nothing.like.this'] }))).toBe('only.1');
    expect(await validationFieldOf(reference({ faults: { inject: () => undefined } as never }))).toBe('faults');
  });
});

describe('runConformance over a factory that does not return an adapter', () => {
  it('stops with one NotAMemoryAdapterError naming what is missing, after one call, instead of failing every rule', async () => {
    let calls = 0;
    const error = await runConformance({
      name: 'not-an-adapter',
      createAdapter: () => {
        calls += 1;
        return { key: 'half', query: () => undefined } as never;
      },
    }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(NotAMemoryAdapterError);
    expect((error as Error).message).toMatch(/^createAdapter\(\) returned \{"key":"half"\}, which is not a MemoryAdapter: it lacks specificationVersion "v1", a capabilities object, capture\(\), upsertRecords\(\), list\(\), get\(\), forget\(\)/);
    expect(calls).toBe(1);
  });
});

describe('runConformance over a factory that throws', () => {
  it('stops with one AdapterFactoryError when the first createAdapter() throws', async () => {
    let calls = 0;
    const error = await runConformance({
      name: 'throwing',
      createAdapter: () => {
        calls += 1;
        throw new TypeError('ACME_API_KEY is not set');
      },
    }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AdapterFactoryError);
    expect((error as Error).message).toBe('createAdapter() threw, so the suite has no adapter to test: TypeError: ACME_API_KEY is not set');
    expect(calls).toBe(1);
  });

  it('fails only the rule whose createAdapter() throws after the first rule ran', async () => {
    const options = reference({ only: ['scope.isolation.companyId.query', 'scope.isolation.companyId.list'] });
    let calls = 0;
    const report = await runConformance({
      ...options,
      createAdapter: () => {
        calls += 1;
        if (calls === 2) throw new TypeError('flaky factory');
        return options.createAdapter();
      },
    });
    expect(report.results.map((result) => result.status)).toEqual(['passed', 'failed']);
    expect(report.results[1]?.error).toBe('Threw MemoryConfigurationError (MEMORY_CONFIGURATION): createAdapter() threw, so the suite has no adapter to test: TypeError: flaky factory');
  });
});

describe('runConformance skip policy', () => {
  it('fails the errors rules without a fault injector, telling the user to pass faults', async () => {
    const report = await runConformance(reference({ faults: undefined, only: ['errors.timeout'] }));
    expect(report.results.map((result) => result.status)).toEqual(['failed', 'failed', 'failed']);
    expect(report.results[0]?.error).toMatch(/needs a fault injector: export `faults` from the conformance module \(the CLI\), or pass it in the options of runConformance.*capabilities\.remoteOperations/);
  });

  it('skips the errors rules of the operations the manifest declares local, and says so', async () => {
    const options = reference({ faults: undefined, only: ['errors'] });
    const report = await runConformance({
      ...options,
      async createAdapter() {
        const adapter = await options.createAdapter();
        return { ...adapter, capabilities: { ...adapter.capabilities, remoteOperations: ['upsertRecords'] } } as typeof adapter;
      },
    });
    const skipped = report.results.filter((result) => result.status === 'skipped');
    expect(skipped.map((result) => result.id).filter((id) => id.endsWith('.upsertRecords'))).toEqual([]);
    expect(skipped).toHaveLength(10);
    expect(skipped[0]?.reason).toMatch(/declares capabilities\.remoteOperations without (query|list)/);
    // upsertRecords is declared remote, so its rules still need the injector.
    expect(report.failed).toBe(5);
  });

  it('fails the peer rules without createPeerAdapter instead of skipping them silently', async () => {
    const report = await runConformance(reference({ createPeerAdapter: undefined, only: ['scope.peer'] }));
    expect(report.failed).toBe(3);
    expect(report.results[0]?.error).toMatch(/needs a peer adapter over the same backend: export `createPeerAdapter` from the conformance module/);
  });

  it('skips rules from the capability manifest with the reason', async () => {
    const options = reference();
    const report = await runConformance({
      ...options,
      async createAdapter() {
        const adapter = await options.createAdapter();
        return { ...adapter, capabilities: { ...adapter.capabilities, explain: false } } as typeof adapter;
      },
      only: ['capabilities.explain.declared-on', 'usage.explain'],
    });
    expect(report.results.map((result) => [result.id, result.status, result.reason])).toEqual([
      ['capabilities.explain.declared-on', 'skipped', 'the adapter does not declare capabilities.explain'],
      ['usage.explain', 'skipped', 'the adapter does not declare capabilities.explain'],
    ]);
  });
});

describe('runRules', () => {
  const passing: ConformanceRule = { id: 'usage.sample-pass', family: 'usage', description: 'passes', run: async () => undefined };
  const failing: ConformanceRule = {
    id: 'usage.sample-fail',
    family: 'usage',
    description: 'fails',
    run: async () => {
      throw new AssertionError({ message: 'Expected the sample to fail.' });
    },
  };
  const hanging: ConformanceRule = { id: 'usage.sample-hang', family: 'usage', description: 'never ends', run: () => new Promise<void>(() => undefined) };

  it('reports each rule with status, message, duration and the counts', async () => {
    const report = await runRules([passing, failing], reference());
    expect(report).toMatchObject({ name: '@memplane/memory', passed: 1, failed: 1, skipped: 0 });
    expect(report.results[1]).toMatchObject({ id: 'usage.sample-fail', status: 'failed', error: 'Expected the sample to fail.' });
    for (const result of report.results) expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('fails a rule that outlives ruleTimeoutMs with a timeout error, and goes on', async () => {
    const report = await runRules([hanging, passing], reference({ ruleTimeoutMs: 5 }));
    expect(report.results[0]).toMatchObject({ status: 'failed' });
    expect(report.results[0]?.error).toMatch(/MEMORY_TIMEOUT.*Rule usage\.sample-hang did not finish within 5 ms/);
    expect(report.results[1]?.status).toBe('passed');
  });

  it('resets the faults after a rule that needs them, even when it failed with a fault in force', async () => {
    const options = reference();
    const faults = options.faults as MemoryAdapterFaults;
    const leavesFaultBehind: ConformanceRule = {
      id: 'errors.sample-leak',
      family: 'errors',
      description: 'injects and fails',
      needs: ['faults'],
      run: async (context) => {
        await context.faults?.inject({ kind: 'server_error', status: 503 });
        throw new AssertionError({ message: 'Expected to fail with the fault in force.' });
      },
    };
    const seesNoFault: ConformanceRule = {
      id: 'usage.sample-after',
      family: 'usage',
      description: 'runs after',
      run: async (context) => {
        await context.adapter.list({ bindingKey: context.bindingKey, scope: context.scope() });
      },
    };
    const report = await runRules([leavesFaultBehind, seesNoFault], options);
    expect(report.results.map((result) => result.status)).toEqual(['failed', 'passed']);
    expect(faults.active()).toEqual([]);
  });

  it('stops the run with the factory\'s error, named, when the adapter factory throws at once', async () => {
    const run = runRules([passing], reference({ createAdapter: () => Promise.reject(new MemoryValidationError({ target: 'settings', issues: [{ path: 'apiKey', message: 'missing' }] })) }));
    await expect(run).rejects.toThrow('createAdapter() threw, so the suite has no adapter to test: MemoryValidationError (MEMORY_VALIDATION): Invalid settings: apiKey: missing');
  });
});
