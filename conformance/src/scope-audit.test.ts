import type { MemoryAdapter } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { ignoresAgentOnList } from './__fixtures__/broken-adapters/ignores-agent-on-list';
import { referenceOptions } from './__fixtures__/broken-adapters/reference-options';
import { runConformance } from './run-conformance';
import { ScopeAudit, scopeMismatches } from './scope-audit';

/** A hand-written adapter class with a private field, as some authors write them. */
class PrivateFieldAdapter {
  readonly #inner: MemoryAdapter;
  constructor(inner: MemoryAdapter) {
    this.#inner = inner;
  }
  get specificationVersion() {
    return this.#inner.specificationVersion;
  }
  get key() {
    return this.#inner.key;
  }
  get capabilities() {
    return this.#inner.capabilities;
  }
  capture(...args: Parameters<MemoryAdapter['capture']>) {
    return this.#inner.capture(...args);
  }
  upsertRecords(...args: Parameters<MemoryAdapter['upsertRecords']>) {
    return this.#inner.upsertRecords(...args);
  }
  query(...args: Parameters<MemoryAdapter['query']>) {
    return this.#inner.query(...args);
  }
  list(...args: Parameters<MemoryAdapter['list']>) {
    return this.#inner.list(...args);
  }
  get(...args: Parameters<MemoryAdapter['get']>) {
    return this.#inner.get(...args);
  }
  forget(...args: Parameters<MemoryAdapter['forget']>) {
    return this.#inner.forget(...args);
  }
  correct(...args: Parameters<MemoryAdapter['correct']>) {
    return this.#inner.correct(...args);
  }
  profile(...args: Parameters<MemoryAdapter['profile']>) {
    return this.#inner.profile(...args);
  }
  getExtractionJob(...args: Parameters<MemoryAdapter['getExtractionJob']>) {
    return this.#inner.getExtractionJob(...args);
  }
  listExtractionJobs(...args: Parameters<MemoryAdapter['listExtractionJobs']>) {
    return this.#inner.listExtractionJobs(...args);
  }
  retryExtractionJob(...args: Parameters<MemoryAdapter['retryExtractionJob']>) {
    return this.#inner.retryExtractionJob(...args);
  }
  explain(...args: Parameters<MemoryAdapter['explain']>) {
    return this.#inner.explain(...args);
  }
}

describe('ScopeAudit', () => {
  it('watches a hand-written class adapter from outside without breaking its private fields', async () => {
    const options = referenceOptions('class adapter', (inner) => new PrivateFieldAdapter(inner) as unknown as MemoryAdapter);
    const report = await runConformance({ ...options, only: ['scope.isolation.companyId', 'scope.isolation.agentId'] });
    expect(report.results.filter((result) => result.status === 'failed').map((result) => `${result.id}: ${result.error}`)).toEqual([]);
  });

  it('records what an adapter without the wrapper returned outside the scope, and says so without blaming the wrapper', async () => {
    const audit = new ScopeAudit();
    const options = referenceOptions('unwrapped', ignoresAgentOnList);
    const adapter = audit.watch(await options.createAdapter());
    const companyId = 'audit-company';
    await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId, agentId: 'agent-a' }, records: [{ text: 'Agent A only.' }] });
    await adapter.list({ bindingKey: 'b', scope: { companyId, agentId: 'agent-b' } });
    expect(audit.violations).toEqual([
      expect.objectContaining({ operation: 'list', scope: { companyId, agentId: 'agent-b' }, droppedByWrapper: false, reason: 'its scope does not match the requested scope: agentId: requested "agent-b", record has "agent-a"' }),
    ]);
    expect(() => audit.assertNoViolation('scope.example')).toThrow(/^Rule scope\.example: list for scope \{"companyId":"audit-company","agentId":"agent-b"\} returned a record outside it .*"text":"Agent A only\."/);
    expect(() => audit.assertNoViolation('scope.example')).not.toThrow(/defineMemoryAdapter/);
  });

  it('names every mismatched field with the value requested and the value the record has, or none', () => {
    const record = { text: 't', scope: { companyId: 'company-a', agentId: 'agent-a', projectId: 'p' }, source: { kind: 'manual_note', companyId: 'company-b' } };
    expect(scopeMismatches(record, { companyId: 'company-a', agentId: 'agent-b', runId: 'run-1', projectId: 'p' })).toEqual([
      'source.companyId: requested "company-a", record has "company-b"',
      'agentId: requested "agent-b", record has "agent-a"',
      'runId: requested "run-1", record has none',
    ]);
    expect(scopeMismatches(record, { companyId: 'company-a' })).toEqual(['source.companyId: requested "company-a", record has "company-b"']);
    expect(scopeMismatches(null, { companyId: 'company-a' })).toEqual([]);
  });
});
