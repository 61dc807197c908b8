import { describe, expect, it } from 'vitest';
import { callsAfterNow, setupSupermemoryFake } from './testing/supermemory-test-setup';

const environment = setupSupermemoryFake();
const { testServer } = environment;
const scope = { companyId: 'snapshot-company', agentId: 'planner' };
const source = { kind: 'issue_comment' as const, companyId: 'snapshot-company', issueId: 'ISS-1', commentId: 'c-1' };
const bindingKey = 'snapshots';

/** The recorded calls with the random record keys and capture times replaced, so the snapshots are stable. */
function recordedRequests(calls = testServer.calls) {
  const text = JSON.stringify(calls.map((call) => ({ method: call.method, path: call.pathname, body: call.bodyJson })));
  return JSON.parse(
    text
      .replace(/"mp_key":"[A-Za-z0-9_-]+"/g, '"mp_key":"<record key>"')
      .replace(/"key":"mp_key","value":"[A-Za-z0-9_-]+"/g, '"key":"mp_key","value":"<record key>"')
      .replace(/"mp_submittedAt":\d+/g, '"mp_submittedAt":"<capture time>"')
      .replace(/\/v3\/documents\/[A-Za-z0-9]+/g, '/v3/documents/<document id>')
      .replace(/"id":"[A-Za-z0-9]{22}"/g, '"id":"<memory id>"'),
  ) as unknown;
}

describe('request bodies', () => {
  it('upsertRecords sends POST /v4/memories into the company tag with flat scope, provenance and metadata', async () => {
    await environment.createAdapter().upsertRecords({
      bindingKey,
      scope,
      source,
      records: [{ text: 'Deploys happen on Tuesdays.', summary: 'deploy day', metadata: { kind: 'fact', tags: ['ops'] } }],
    });
    expect(recordedRequests()).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTag": "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            "memories": [
              {
                "content": "Deploys happen on Tuesdays.",
                "metadata": {
                  "mp_agentId": "planner",
                  "mp_companyId": "snapshot-company",
                  "mp_key": "<record key>",
                  "mp_metadata": "{"kind":"fact","tags":["ops"]}",
                  "mp_origin": "record",
                  "mp_source": "{"kind":"issue_comment","companyId":"snapshot-company","issueId":"ISS-1","commentId":"c-1"}",
                  "mp_summary": "deploy day",
                  "mpf_kind": "fact",
                },
              },
            ],
          },
          "method": "POST",
          "path": "/v4/memories",
        },
      ]
    `);
  });

  it('query sends POST /v4/search with one container tag, memories mode and the scope and filter as AND', async () => {
    await environment.createAdapter({ searchThreshold: 0.4 }).query({ bindingKey, scope, query: 'deploy day', topK: 5, metadataFilter: { kind: 'fact' } });
    expect(recordedRequests()).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTag": "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            "filters": {
              "AND": [
                {
                  "key": "mp_companyId",
                  "value": "snapshot-company",
                },
                {
                  "key": "mp_agentId",
                  "value": "planner",
                },
                {
                  "key": "mpf_kind",
                  "value": "fact",
                },
              ],
            },
            "include": {
              "documents": true,
            },
            "limit": 5,
            "q": "deploy day",
            "searchMode": "memories",
            "threshold": 0.4,
          },
          "method": "POST",
          "path": "/v4/search",
        },
      ]
    `);
  });

  it('query sends threshold 0 when searchThreshold is not set, so topK alone limits the hits', async () => {
    const recorded = callsAfterNow(testServer);
    await environment.createAdapter().query({ bindingKey, scope, query: 'deploy day', topK: 5 });
    expect(recorded().map((call) => (call.bodyJson as { threshold?: unknown }).threshold)).toEqual([0]);
  });

  it('list sends POST /v4/memories/list oldest first, with the array form of the container tag', async () => {
    await environment.createAdapter().list({ bindingKey, scope, limit: 20 });
    expect(recordedRequests()).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTags": [
              "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            ],
            "filters": {
              "AND": [
                {
                  "key": "mp_companyId",
                  "value": "snapshot-company",
                },
                {
                  "key": "mp_agentId",
                  "value": "planner",
                },
              ],
            },
            "limit": 20,
            "order": "asc",
            "page": 1,
            "sort": "createdAt",
          },
          "method": "POST",
          "path": "/v4/memories/list",
        },
      ]
    `);
  });

  it('capture sends POST /v3/documents with the capture marker, then polls GET /v3/documents/{id}', async () => {
    const adapter = environment.createAdapter();
    const captured = await adapter.capture({
      bindingKey,
      scope,
      source,
      payload: { text: 'Raw run transcript.' },
      hook: { hookKind: 'post_run_capture', hookId: 'hook-1', triggeredAt: '2026-11-01T10:00:00.000Z' },
    });
    await adapter.getExtractionJob(captured.jobs![0]!.providerJobId, scope);
    expect(recordedRequests()).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTag": "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            "content": "Raw run transcript.",
            "metadata": {
              "mp_agentId": "planner",
              "mp_companyId": "snapshot-company",
              "mp_hook": "post_run_capture",
              "mp_key": "<record key>",
              "mp_origin": "capture",
              "mp_source": "{"kind":"issue_comment","companyId":"snapshot-company","issueId":"ISS-1","commentId":"c-1"}",
              "mp_submittedAt": "<capture time>",
            },
          },
          "method": "POST",
          "path": "/v3/documents",
        },
        {
          "method": "GET",
          "path": "/v3/documents/<document id>",
        },
      ]
    `);
  });

  it('forget reads the entry by its record key, then soft-deletes it with DELETE /v4/memories', async () => {
    const adapter = environment.createAdapter();
    const written = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Temporary fact.' }] });
    const calls = callsAfterNow(testServer);
    await adapter.forget(written.records ?? [], scope);
    expect(recordedRequests(calls())).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTags": [
              "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            ],
            "filters": {
              "AND": [
                {
                  "key": "mp_companyId",
                  "value": "snapshot-company",
                },
                {
                  "key": "mp_key",
                  "value": "<record key>",
                },
              ],
            },
            "limit": 100,
            "order": "asc",
            "page": 1,
            "sort": "createdAt",
          },
          "method": "POST",
          "path": "/v4/memories/list",
        },
        {
          "body": {
            "containerTag": "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            "id": "<memory id>",
            "reason": "forgotten through memplane",
          },
          "method": "DELETE",
          "path": "/v4/memories",
        },
      ]
    `);
  });

  it('correct sends PATCH /v4/memories with the new content and the merged metadata', async () => {
    const adapter = environment.createAdapter();
    const written = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Office opens at 8.', metadata: { owner: 'ops' } }] });
    const calls = callsAfterNow(testServer);
    await adapter.correct(written.records![0]!, { text: 'Office opens at 9.', reason: 'new hours' }, scope);
    expect(recordedRequests(calls())).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTags": [
              "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            ],
            "filters": {
              "AND": [
                {
                  "key": "mp_companyId",
                  "value": "snapshot-company",
                },
                {
                  "key": "mp_key",
                  "value": "<record key>",
                },
              ],
            },
            "limit": 100,
            "order": "asc",
            "page": 1,
            "sort": "createdAt",
          },
          "method": "POST",
          "path": "/v4/memories/list",
        },
        {
          "body": {
            "containerTag": "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            "id": "<memory id>",
            "metadata": {
              "mp_agentId": "planner",
              "mp_companyId": "snapshot-company",
              "mp_key": "<record key>",
              "mp_metadata": "{"owner":"ops"}",
              "mp_origin": "record",
              "mp_reason": "new hours",
              "mpf_owner": "ops",
            },
            "newContent": "Office opens at 9.",
          },
          "method": "PATCH",
          "path": "/v4/memories",
        },
      ]
    `);
  });

  it('profile sends POST /v4/profile with the scope filter', async () => {
    await environment.createAdapter().profile(scope);
    expect(recordedRequests()).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "containerTag": "mp_EPY1cl6y0obq6v_LFwFzoF_mWUz2WiDIs59WMus7xdA",
            "filters": {
              "AND": [
                {
                  "key": "mp_companyId",
                  "value": "snapshot-company",
                },
                {
                  "key": "mp_agentId",
                  "value": "planner",
                },
              ],
            },
          },
          "method": "POST",
          "path": "/v4/profile",
        },
      ]
    `);
  });
});
