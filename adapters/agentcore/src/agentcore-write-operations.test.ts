import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentCoreEndpoint } from './testing/agentcore-fake-responses';
import { recordedBodies, recordedRoutes } from './testing/agentcore-recorded-requests';
import { setupAgentCoreTestEnvironment, testMemoryId, testRegion } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();
const source = { kind: 'issue_comment' as const, companyId: 'acme', issueId: 'issue-1', commentId: 'comment-1' };
const batchCreate = /\/memoryRecords\/batchCreate$/;

describe('upsertRecords', () => {
  it('sends BatchCreateMemoryRecords with the namespace, scope metadata, packed provenance and a request identifier per record', async () => {
    const adapter = environment.createAdapter();
    const result = await adapter.upsertRecords({
      bindingKey: 'default',
      scope: { companyId: 'acme', agentId: 'planner', projectId: 'apollo' },
      source,
      records: [{ text: 'Deploys happen on Tuesdays.', summary: 'deploy day', metadata: { topic: 'deploys' } }, { text: 'Staging is rebuilt nightly.' }],
    });
    expect(result.failures).toBeUndefined();
    expect(result.records?.map((handle) => handle.providerRecordId)).toEqual([...environment.fake.records.keys()].map((id) => `record:${id}`));
    expect(recordedBodies(environment.server.calls, 'POST', batchCreate)).toMatchInlineSnapshot(`
      [
        {
          "clientToken": "<uuid>",
          "records": [
            {
              "content": {
                "text": "Deploys happen on Tuesdays.",
              },
              "metadata": {
                "memplane.p0": {
                  "stringValue": "j1.eyJzIjp7ImtpbmQiOiJpc3N1ZV9jb21tZW50IiwiY29tcGFueUlkIjoiYWNtZSIsImlzc3VlSWQiOiJpc3N1ZS0xIiwiY29tbWVudElkIjoiY29tbWVudC0xIn0sIm0iOnsidG9waWMiOiJkZXBsb3lzIn0sInkiOiJkZXBsb3kgZGF5In0=",
                },
                "memplane.projectId": {
                  "stringValue": "apollo",
                },
              },
              "namespaces": [
                "/c/acme/a/planner/",
              ],
              "requestIdentifier": "r0",
              "timestamp": "<epoch seconds>",
            },
            {
              "content": {
                "text": "Staging is rebuilt nightly.",
              },
              "metadata": {
                "memplane.p0": {
                  "stringValue": "j1.eyJzIjp7ImtpbmQiOiJpc3N1ZV9jb21tZW50IiwiY29tcGFueUlkIjoiYWNtZSIsImlzc3VlSWQiOiJpc3N1ZS0xIiwiY29tbWVudElkIjoiY29tbWVudC0xIn19",
                },
                "memplane.projectId": {
                  "stringValue": "apollo",
                },
              },
              "namespaces": [
                "/c/acme/a/planner/",
              ],
              "requestIdentifier": "r1",
              "timestamp": "<epoch seconds>",
            },
          ],
        },
      ]
    `);
  });

  it('writes in batches of at most 100 and returns the handles in request order', async () => {
    const adapter = environment.createAdapter();
    const records = Array.from({ length: 250 }, (_, index) => ({ text: `Fact number ${index}.` }));
    const result = await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records });
    const batches = recordedBodies(environment.server.calls, 'POST', batchCreate) as Array<{ records: unknown[] }>;
    expect(batches.map((batch) => batch.records.length)).toEqual([100, 100, 50]);
    expect(result.records).toHaveLength(250);
    const texts = (result.records ?? []).map((handle) => environment.fake.records.get(handle.providerRecordId.slice('record:'.length))?.content.text);
    expect(texts).toEqual(records.map((record) => record.text));
    expect(result.usage).toHaveLength(3);
  });

  it('surfaces records AgentCore rejects inside its 201 as per-record failures, never as success', async () => {
    environment.rejectRecords((text) =>
      text.includes('throttled') ? { errorCode: 429, errorMessage: 'Rate exceeded' } : text.includes('invalid') ? { errorCode: 400, errorMessage: 'Bad content' } : undefined,
    );
    const adapter = environment.createAdapter();
    const result = await adapter.upsertRecords({
      bindingKey: 'default',
      scope: { companyId: 'acme' },
      records: [{ text: 'kept one' }, { text: 'throttled one' }, { text: 'kept two' }, { text: 'invalid one' }],
    });
    expect(result.records).toHaveLength(2);
    expect(result.failures).toEqual([
      { index: 1, code: 'MEMORY_RATE_LIMITED', message: 'AgentCore rejected the record (429): Rate exceeded', isRetryable: true },
      { index: 3, code: 'MEMORY_VALIDATION', message: 'AgentCore rejected the record (400): Bad content', isRetryable: false },
    ]);
    expect([...environment.fake.records.values()].map((record) => record.content.text)).toEqual(['kept one', 'kept two']);
  });

  it('reports a record AgentCore mentions in neither list as a failure', async () => {
    environment.server.use(
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords/batchCreate`, () =>
        HttpResponse.json({ successfulRecords: [{ memoryRecordId: `mem-${'a'.repeat(36)}`, status: 'SUCCEEDED', requestIdentifier: 'r0' }], failedRecords: [] }, { status: 201 }),
      ),
    );
    const result = await environment.createAdapter().upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records: [{ text: 'one' }, { text: 'two' }] });
    expect(result.records).toEqual([{ providerKey: 'agentcore', providerRecordId: `record:mem-${'a'.repeat(36)}` }]);
    expect(result.failures).toEqual([{ index: 1, code: 'MEMORY_INVALID_RESPONSE', message: 'AgentCore did not report on this record.', isRetryable: true }]);
  });

  it('turns a later batch that fails as a whole into failures of its records, keeping the written ones', async () => {
    let calls = 0;
    environment.server.use(
      http.post(`${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords/batchCreate`, () => {
        calls += 1;
        if (calls === 1) return undefined;
        return new HttpResponse(JSON.stringify({ message: 'Access denied' }), { status: 403, headers: { 'x-amzn-errortype': 'AccessDeniedException' } });
      }),
    );
    const records = Array.from({ length: 120 }, (_, index) => ({ text: `Fact ${index}` }));
    const result = await environment.createAdapter().upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records });
    expect(result.records).toHaveLength(100);
    expect(result.failures).toHaveLength(20);
    expect(result.failures?.[0]).toMatchObject({ index: 100, code: 'MEMORY_API_CALL', isRetryable: false });
  });

  it('retries a failed batch with the same client token, so AgentCore can recognise the repeat', async () => {
    environment.server.use(
      http.post(
        `${agentCoreEndpoint(testRegion)}/memories/:memoryId/memoryRecords/batchCreate`,
        () => new HttpResponse(JSON.stringify({ message: 'try again' }), { status: 503, headers: { 'x-amzn-errortype': 'ServiceException' } }),
        { once: true },
      ),
    );
    const result = await environment.createAdapter().upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records: [{ text: 'once' }] });
    expect(result.records).toHaveLength(1);
    const tokens = environment.server.calls.filter((call) => batchCreate.test(call.pathname)).map((call) => (call.bodyJson as { clientToken: string }).clientToken);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toBe(tokens[0]);
    expect(environment.fake.records.size).toBe(1);
  });

  it('keeps caller metadata too large for AgentCore as far as it fits and says what it dropped', async () => {
    const noise = Array.from({ length: 300 }, (_, index) => `${index}:${Math.sin(index).toString(36)}`).join(',');
    const result = await environment.createAdapter().upsertRecords({
      bindingKey: 'default',
      scope: { companyId: 'acme', projectId: 'p', issueId: 'i', runId: 'r', subjectId: 's', sessionKey: 'k', namespace: 'n' },
      source,
      records: [{ text: 'too much metadata', metadata: { noise } }],
    });
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'records.0.metadata' })]);
    const [stored] = environment.fake.records.values();
    expect(Object.keys(stored?.metadata ?? {}).length).toBeLessThanOrEqual(15);
    const read = await environment.createAdapter().get(result.records?.[0] ?? { providerKey: 'agentcore', providerRecordId: 'x' }, { companyId: 'acme' });
    expect(read?.source).toEqual(source);
    expect(read?.metadata).toBeUndefined();
  });
});

describe('capture', () => {
  it('capture_residue sends CreateEvent under the scope actor and session, and returns the event handle', async () => {
    const adapter = environment.createAdapter();
    const result = await adapter.capture({
      bindingKey: 'default',
      scope: { companyId: 'acme', agentId: 'planner', sessionKey: 'thread-7', projectId: 'apollo' },
      source: { kind: 'run', companyId: 'acme', runId: 'run-1' },
      payload: { text: 'The team prefers small pull requests.', object: { files: 3 }, mimeType: 'text/plain' },
      hook: { hookKind: 'post_run_capture', hookId: 'hook-1', triggeredAt: '2026-11-01T10:00:00.000Z' },
      metadata: { origin: 'test' },
    });
    const [event] = environment.fake.events.values();
    expect(result.records).toEqual([{ providerKey: 'agentcore', providerRecordId: `event:c/acme/a/planner;k-thread-7;${event?.eventId}` }]);
    expect(result.jobs).toBeUndefined();
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'payload.object' })]);
    expect(event?.eventTimestamp).toBe(Date.parse('2026-11-01T10:00:00.000Z') / 1000);
    expect(recordedBodies(environment.server.calls, 'POST', /\/events$/)).toMatchInlineSnapshot(`
      [
        {
          "actorId": "c/acme/a/planner",
          "clientToken": "<uuid>",
          "eventTimestamp": "<epoch seconds>",
          "metadata": {
            "memplane.p0": {
              "stringValue": "j1.eyJzIjp7ImtpbmQiOiJydW4iLCJjb21wYW55SWQiOiJhY21lIiwicnVuSWQiOiJydW4tMSJ9LCJoIjp7Imhvb2tLaW5kIjoicG9zdF9ydW5fY2FwdHVyZSIsImhvb2tJZCI6Imhvb2stMSIsInRyaWdnZXJlZEF0IjoiMjAyNi0xMS0wMVQxMDowMDowMC4wMDBaIn0sInQiOiJ0ZXh0L3BsYWluIiwibSI6eyJvcmlnaW4iOiJ0ZXN0In19",
            },
            "memplane.projectId": {
              "stringValue": "apollo",
            },
            "memplane.sessionKey": {
              "stringValue": "thread-7",
            },
          },
          "payload": [
            {
              "conversational": {
                "content": {
                  "text": "The team prefers small pull requests.",
                },
                "role": "ASSISTANT",
              },
            },
            {
              "blob": {
                "files": 3,
              },
            },
          ],
          "sessionId": "k-thread-7",
        },
      ]
    `);
  });

  it('capture_residue without a session key uses the run as the session, and without either lets AgentCore start one', async () => {
    const adapter = environment.createAdapter();
    const capture = (scope: { companyId: string; runId?: string }) =>
      adapter.capture({ bindingKey: 'default', scope, source: { kind: 'manual_note', companyId: 'acme' }, payload: { text: 'A note.' } });
    await capture({ companyId: 'acme', runId: 'run-9' });
    await capture({ companyId: 'acme' });
    const bodies = recordedBodies(environment.server.calls, 'POST', /\/events$/) as Array<{ actorId: string; sessionId?: string; payload: unknown }>;
    expect(bodies.map((body) => [body.actorId, body.sessionId])).toEqual([['c/acme', 'r-run-9'], ['c/acme', undefined]]);
    expect(bodies[0]?.payload).toEqual([{ conversational: { role: 'USER', content: { text: 'A note.' } } }]);
  });

  it('capture_record stores the payload as one record, listed at once with its provenance', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner' };
    const result = await adapter.capture({ bindingKey: 'default', scope, source, payload: { text: 'Recorded as is.' }, metadata: { kept: true }, mode: 'capture_record' });
    expect(result.records?.[0]?.providerRecordId).toMatch(/^record:mem-/);
    const page = await adapter.list({ bindingKey: 'default', scope });
    expect(page.items).toEqual([expect.objectContaining({ text: 'Recorded as is.', source, metadata: { kept: true }, scope })]);
    expect(recordedRoutes(environment.server.calls)).toEqual([
      `POST /memories/${testMemoryId}/memoryRecords/batchCreate`,
      `POST /memories/${testMemoryId}/memoryRecords`,
    ]);
  });

  it('capture_record of an object-only payload stores it as JSON text and says so', async () => {
    const result = await environment.createAdapter().capture({
      bindingKey: 'default',
      scope: { companyId: 'acme' },
      source,
      payload: { object: { decision: 'ship' } },
      mode: 'capture_record',
    });
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'compatibility', feature: 'payload.object' })]);
    expect([...environment.fake.records.values()][0]?.content.text).toBe('{"decision":"ship"}');
  });

  it('lets the strategies extract records from captured events into the scope namespace, visible only after extraction', async () => {
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner' };
    await adapter.capture({ bindingKey: 'default', scope, source, payload: { text: 'The team deploys on Tuesdays.' } });
    expect((await adapter.list({ bindingKey: 'default', scope })).items).toEqual([]);
    environment.fake.drainExtraction();
    const listed = await adapter.list({ bindingKey: 'default', scope });
    expect(listed.items).toEqual([expect.objectContaining({ text: 'The team deploys on Tuesdays.', scope })]);
    expect((await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme', agentId: 'other' } })).items).toEqual([]);
    expect((await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme1' } })).items).toEqual([]);
  });
});
