import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';
import { createMemoryTools, type MemoryToolDefinition } from './memory-tools';

describe('agent tools refusing input', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  let tools: Map<string, MemoryToolDefinition>;
  const planner = { ...as(actors.planner, { heartbeatRunId: 'run-8', client: { name: 'claude-code', version: '2.1.0' } }), issueId: 'ACME-1' };
  const failed = async () => {
    await service.flush();
    return (await service.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed', limit: 200 })).items.reverse();
  };

  beforeEach(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
    await bindCompanyDefault(service, actors.globexAdmin, 'default', 'memory');
    tools = new Map(createMemoryTools(service, { capabilities: { profile: true, listExtractionJobs: true } }).map((tool) => [tool.name, tool]));
  });
  afterEach(async () => cleanUp());

  const valid: Record<string, Record<string, unknown>> = {
    'memory.search': { query: 'deploys' },
    'memory.note': { text: 'Planted fact.' },
    'memory.forget': { recordIds: ['memory:mem_1'] },
    'memory.correct': { recordId: 'memory:mem_1', text: 'Planted correction.' },
    'memory.list': {},
    'memory.get': { recordId: 'memory:mem_1' },
    'memory.profile': {},
    'memory.jobs': {},
  };
  const operationOf: Record<string, string> = {
    'memory.search': 'query',
    'memory.note': 'record_upsert',
    'memory.forget': 'forget',
    'memory.correct': 'correct',
    'memory.list': 'list',
    'memory.get': 'get',
    'memory.profile': 'profile',
    'memory.jobs': 'extraction_job_list',
  };

  it('log a model-supplied company or agent on every tool as a failed operation of that tool, naming only the field', async () => {
    for (const [name, input] of Object.entries(valid)) {
      const result = await tools.get(name)!.execute({ ...input, companyId: 'globex-secret-company' }, planner);
      expect(result).toMatchObject({ isError: true, error: { code: 'MEMORY_VALIDATION' } });
    }
    const refusedAgent = await tools.get('memory.search')!.execute({ query: 'x', agentId: 'scout-secret-agent', scope: { companyId: 'globex' } }, planner);
    expect(refusedAgent).toMatchObject({ isError: true, error: { code: 'MEMORY_VALIDATION' } });

    const log = await failed();
    expect(log.map((entry) => entry.operation)).toEqual([...Object.values(operationOf), 'query']);
    for (const [index, entry] of log.entries()) {
      expect(entry).toMatchObject({
        status: 'failed',
        errorCode: 'MEMORY_VALIDATION',
        companyId: 'acme',
        actor: { kind: 'agent', id: 'planner' },
        heartbeatRunId: 'run-8',
        details: { client: { name: 'claude-code', version: '2.1.0' }, refusedBy: Object.keys(operationOf)[index] ?? 'memory.search' },
      });
      expect(entry.bindingId).toBeUndefined();
    }
    expect(log.slice(0, 8).map((entry) => entry.details?.refusedFields)).toEqual(Array.from({ length: 8 }, () => ['companyId']));
    expect(log[8]?.details?.refusedFields).toEqual(['agentId', 'scope']);
    // The values the model sent are nowhere in the log, nor did anything reach a binding.
    expect(JSON.stringify(log)).not.toMatch(/globex|secret|Planted/);
    expect((await service.explorer(as(actors.globexAdmin)).listOperations({})).items).toEqual([]);
    expect((await service.runtime(as(actors.acmeAdmin)).list({})).items).toEqual([]);
    expect((await service.runtime(as(actors.globexAdmin)).list({})).items).toEqual([]);
    expect(service.metrics().failedOperations).toBeGreaterThanOrEqual(9);
  });

  it('log a malformed record id and a narrowing outside the bound scope the same way', async () => {
    const badId = await tools.get('memory.forget')!.execute({ recordIds: ['memory:mem_1', 'no-separator-secret'] }, planner);
    expect(badId).toMatchObject({ isError: true, error: { code: 'MEMORY_VALIDATION' } });
    const outside = await tools.get('memory.search')!.execute({ query: 'x', issueId: 'ACME-2-secret' }, planner);
    expect(outside).toMatchObject({ isError: true, error: { code: 'MEMORY_SCOPE_VIOLATION' } });
    const log = await failed();
    expect(log.map((entry) => [entry.operation, entry.errorCode, entry.details?.refusedFields])).toEqual([
      ['forget', 'MEMORY_VALIDATION', ['recordIds.1']],
      ['query', 'MEMORY_SCOPE_VIOLATION', ['issueId']],
    ]);
    expect(JSON.stringify(log)).not.toContain('secret');
  });

  it('keep only bounded, printable field names whatever keys and values a model invents', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 300, unit: 'binary' }), fc.string({ maxLength: 40 }).map((text) => `VALUE${text}`), { minKeys: 1, maxKeys: 30 }),
        async (extra) => {
          const before = (await failed()).length;
          const input = { query: 'x', ...extra };
          const result = await tools.get('memory.search')!.execute(input, planner);
          const known = new Set(['query', 'topK', 'reach', 'projectId', 'issueId']);
          if (Object.keys(extra).every((key) => known.has(key))) return;
          expect(result.isError).toBe(true);
          const log = await failed();
          expect(log).toHaveLength(before + 1);
          const fields = log.at(-1)!.details?.refusedFields as string[];
          expect(fields.length).toBeGreaterThan(0);
          expect(fields.length).toBeLessThanOrEqual(20);
          // eslint-disable-next-line no-control-regex
          for (const field of fields) expect(field).toMatch(/^[^\u0000-\u001f\u007f-\u009f\ud800-\udfff]{1,128}$/);
          expect(JSON.stringify(log.at(-1))).not.toContain('VALUE');
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuse a malformed refusal record, logging nothing', async () => {
    const runtime = service.runtime(as(actors.planner));
    await expect(runtime.logRefusedCall({ operation: 'query', via: 'memory.search', code: 'MEMORY_VALIDATION', fields: ['bad\u0000name'] })).rejects.toMatchObject({
      code: 'MEMORY_VALIDATION',
      message: expect.stringContaining('fields.0'),
    });
    await expect(runtime.logRefusedCall({ operation: 'retention_prune' as never, via: 'memory.search', code: 'MEMORY_VALIDATION', fields: ['x'] })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    expect(await failed()).toEqual([]);
    const { operationId } = await runtime.logRefusedCall({ operation: 'get', via: 'my-tool', code: 'MEMORY_VALIDATION', fields: ['id'] });
    expect((await failed()).map((entry) => [entry.id, entry.operation, entry.errorMessage])).toEqual([[operationId, 'get', 'Invalid my-tool input: id: refused']]);
  });
});
