import { MemoryNotFoundError, MemoryValidationError, type MemoryRecordHandle } from '@memplane/core';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentCoreEndpoint } from './testing/agentcore-fake-responses';
import { recordedBodies, recordedRoutes } from './testing/agentcore-recorded-requests';
import { setupAgentCoreTestEnvironment, testMemoryId, testRegion } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();
const source = { kind: 'manual_note' as const, companyId: 'acme' };

async function writeOne(scope = { companyId: 'acme', agentId: 'planner' }, metadata: Record<string, unknown> = { kept: 1, changed: 'before' }) {
  const adapter = environment.createAdapter();
  const result = await adapter.upsertRecords({ bindingKey: 'default', scope, source, records: [{ text: 'original text', summary: 'original', metadata }] });
  const handle = result.records?.[0] as MemoryRecordHandle;
  return { adapter, handle, scope, memoryRecordId: handle.providerRecordId.slice('record:'.length), mark: environment.server.calls.length };
}

describe('get', () => {
  it('reads a record with GetMemoryRecord, sending the scope namespace for IAM', async () => {
    const { adapter, handle, memoryRecordId, mark } = await writeOne();
    const snippet = await adapter.get(handle, { companyId: 'acme' });
    expect(snippet).toMatchObject({ text: 'original text', summary: 'original', source, metadata: { kept: 1, changed: 'before' }, scope: { companyId: 'acme', agentId: 'planner' } });
    expect(recordedRoutes(environment.server.calls.slice(mark))).toEqual([`GET /memories/${testMemoryId}/memoryRecord/${memoryRecordId}?namespace=%2Fc%2Facme%2F`]);
  });

  it('reads null for a handle of another company, agent or scope field, and for handles it never issued', async () => {
    const { adapter, handle } = await writeOne({ companyId: 'acme', agentId: 'planner' });
    expect(await adapter.get(handle, { companyId: 'acme1' })).toBeNull();
    expect(await adapter.get(handle, { companyId: 'acme', agentId: 'other' })).toBeNull();
    expect(await adapter.get(handle, { companyId: 'acme', projectId: 'p' })).toBeNull();
    const callsBefore = environment.server.calls.length;
    expect(await adapter.get({ providerKey: 'agentcore', providerRecordId: 'record:not-a-memory-id' }, { companyId: 'acme' })).toBeNull();
    expect(await adapter.get({ providerKey: 'agentcore', providerRecordId: 'document:abc' }, { companyId: 'acme' })).toBeNull();
    expect(environment.server.calls.length).toBe(callsBefore);
  });

  it('still checks the scope itself when the namespace is not sent', async () => {
    const { handle } = await writeOne({ companyId: 'acme', agentId: 'planner' });
    const adapter = environment.createAdapter({ sendNamespaceWithRecordCalls: false });
    expect(await adapter.get(handle, { companyId: 'acme1' })).toBeNull();
    expect(await adapter.get(handle, { companyId: 'acme' })).not.toBeNull();
    expect(environment.server.calls.every((call) => !call.url.includes('namespace='))).toBe(true);
  });

  it('reads a captured event through its event handle, and only in its scope', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner', runId: 'run-1' };
    const { records } = await adapter.capture({ bindingKey: 'default', scope, source, payload: { text: 'captured turn', object: { a: 1 } }, metadata: { m: true } });
    const handle = records?.[0] as MemoryRecordHandle;
    expect(await adapter.get(handle, { companyId: 'acme' })).toMatchObject({ text: 'captured turn\n{"a":1}', source, metadata: { m: true }, scope });
    const callsBefore = environment.server.calls.length;
    expect(await adapter.get(handle, { companyId: 'globex' })).toBeNull();
    expect(await adapter.get(handle, { companyId: 'acme', agentId: 'other' })).toBeNull();
    expect(environment.server.calls.length).toBe(callsBefore);
    expect(await adapter.get(handle, { companyId: 'acme', runId: 'run-2' })).toBeNull();
  });
});

describe('forget', () => {
  it('checks one record against the scope, then deletes it with DeleteMemoryRecord under its own namespace', async () => {
    const { adapter, handle, memoryRecordId, mark } = await writeOne();
    await adapter.forget([handle], { companyId: 'acme' });
    expect(environment.fake.records.size).toBe(0);
    expect(recordedRoutes(environment.server.calls.slice(mark))).toEqual([
      `GET /memories/${testMemoryId}/memoryRecord/${memoryRecordId}?namespace=%2Fc%2Facme%2F`,
      `DELETE /memories/${testMemoryId}/memoryRecords/${memoryRecordId}?namespace=%2Fc%2Facme%2Fa%2Fplanner%2F`,
    ]);
  });

  it('deletes several records with BatchDeleteMemoryRecords and leaves out-of-scope and unknown handles alone', async () => {
    const adapter = environment.createAdapter();
    const ours = (await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records: [{ text: 'one' }, { text: 'two' }] })).records ?? [];
    const theirs = (await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'globex' }, records: [{ text: 'theirs' }] })).records ?? [];
    const result = await adapter.forget([...ours, ...theirs, { providerKey: 'agentcore', providerRecordId: 'unknown' }], { companyId: 'acme' });
    expect([...environment.fake.records.values()].map((record) => record.content.text)).toEqual(['theirs']);
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'other', message: expect.stringContaining('unknown') })]);
    const [batch] = recordedBodies(environment.server.calls, 'POST', /\/batchDelete$/) as Array<{ records: Array<{ namespace: string }> }>;
    expect(batch?.records.map((record) => record.namespace)).toEqual(['/c/acme/', '/c/acme/']);
  });

  it('is harmless for a record already gone, even when AgentCore reports it missing inside the batch', async () => {
    const adapter = environment.createAdapter();
    const handles = (await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records: [{ text: 'one' }, { text: 'two' }] })).records ?? [];
    const ids = handles.map((handle) => handle.providerRecordId.slice('record:'.length));
    // Between the scope check and the delete, someone else deletes the first record.
    environment.server.use(
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords/batchDelete`, () => {
        environment.fake.records.delete(ids[0] as string);
        return undefined;
      }),
    );
    await expect(adapter.forget(handles, { companyId: 'acme' })).resolves.toBeDefined();
    expect(environment.fake.records.size).toBe(0);
  });

  it('throws when AgentCore refuses to delete a record for another reason, so a forget never passes silently', async () => {
    const adapter = environment.createAdapter();
    const handles = (await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records: [{ text: 'one' }, { text: 'two' }] })).records ?? [];
    environment.server.use(
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords/batchDelete`, () =>
        HttpResponse.json({ successfulRecords: [], failedRecords: [{ memoryRecordId: 'mem-x', status: 'FAILED', errorCode: 500, errorMessage: 'Internal error' }] }),
      ),
    );
    await expect(adapter.forget(handles, { companyId: 'acme' })).rejects.toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: true });
  });

  it('deletes a captured event with DeleteEvent; records already extracted from it stay', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme' };
    const { records } = await adapter.capture({ bindingKey: 'default', scope, source, payload: { text: 'the residue' } });
    environment.fake.drainExtraction();
    await adapter.forget(records ?? [], { companyId: 'globex' });
    expect(environment.fake.events.size).toBe(1);
    await adapter.forget(records ?? [], scope);
    expect(environment.fake.events.size).toBe(0);
    expect((await adapter.list({ bindingKey: 'default', scope })).items.map((item) => item.text)).toEqual(['the residue']);
  });
});

describe('correct', () => {
  it('rewrites the record in place with BatchUpdateMemoryRecords, merging metadata keys and keeping the scope', async () => {
    const { adapter, handle, scope } = await writeOne();
    const result = await adapter.correct(handle, { text: 'corrected text', metadata: { changed: 'after' }, reason: 'typo' }, { companyId: 'acme' });
    expect(result.record).toEqual(handle);
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'reason' })]);
    expect(await adapter.get(handle, scope)).toMatchObject({ text: 'corrected text', summary: 'original', source, metadata: { kept: 1, changed: 'after' }, scope });
    expect(recordedBodies(environment.server.calls, 'POST', /\/batchUpdate$/)).toMatchInlineSnapshot(`
      [
        {
          "records": [
            {
              "content": {
                "text": "corrected text",
              },
              "memoryRecordId": "mem-<uuid>",
              "metadata": {
                "memplane.p0": {
                  "stringValue": "j1.eyJzIjp7ImtpbmQiOiJtYW51YWxfbm90ZSIsImNvbXBhbnlJZCI6ImFjbWUifSwibSI6eyJrZXB0IjoxLCJjaGFuZ2VkIjoiYWZ0ZXIifSwieSI6Im9yaWdpbmFsIn0=",
                },
              },
              "timestamp": "<epoch seconds>",
            },
          ],
        },
      ]
    `);
  });

  it('drops provenance chunks of the longer version when the corrected one is shorter', async () => {
    const long = { words: Array.from({ length: 60 }, (_, index) => `word${index}`) };
    const { adapter, handle, scope } = await writeOne({ companyId: 'acme', agentId: 'planner' }, long);
    const before = Object.keys([...environment.fake.records.values()][0]?.metadata ?? {}).length;
    await adapter.correct(handle, { summary: 'new summary' }, scope);
    await adapter.correct(handle, { metadata: { words: [] } }, scope);
    const after = Object.keys([...environment.fake.records.values()][0]?.metadata ?? {}).length;
    expect(after).toBeLessThan(before);
    expect(await adapter.get(handle, scope)).toMatchObject({ summary: 'new summary', metadata: { words: [] } });
  });

  it('keeps metadata keys other applications wrote on the record', async () => {
    const { adapter, handle, scope, memoryRecordId } = await writeOne();
    const stored = environment.fake.records.get(memoryRecordId);
    if (stored?.metadata !== undefined) stored.metadata['team.owner'] = { stringValue: 'platform' };
    await adapter.correct(handle, { text: 'corrected' }, scope);
    expect(environment.fake.records.get(memoryRecordId)?.metadata?.['team.owner']).toEqual({ stringValue: 'platform' });
  });

  it('refuses handles of another scope as not found and leaves the record unchanged', async () => {
    const { adapter, handle, scope } = await writeOne();
    await expect(adapter.correct(handle, { text: 'intruder' }, { companyId: 'globex' })).rejects.toSatisfy(MemoryNotFoundError.isInstance);
    await expect(adapter.correct(handle, { text: 'intruder' }, { companyId: 'acme', agentId: 'other' })).rejects.toSatisfy(MemoryNotFoundError.isInstance);
    expect((await adapter.get(handle, scope))?.text).toBe('original text');
  });

  it('refuses an event handle with a validation error: events are immutable', async () => {
    const adapter = environment.createAdapter();
    const { records } = await adapter.capture({ bindingKey: 'default', scope: { companyId: 'acme' }, source, payload: { text: 'residue' } });
    const error = await adapter.correct(records?.[0] as MemoryRecordHandle, { text: 'changed' }, { companyId: 'acme' }).catch((caught: unknown) => caught);
    expect(MemoryValidationError.isInstance(error) && error.field).toBe('handle.providerRecordId');
  });
});
