import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { bodiesTo, createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
const scope = { companyId: 'acme', agentId: 'planner', subjectId: 'alice', runId: 'run-7' };
const source = { kind: 'issue_comment' as const, companyId: 'acme', issueId: 'ISS-1', commentId: 'C-9' };

describe('the read and change requests the mem0 adapter sends', () => {
  it('query and list: search and getAll filtered on app_id and the scope metadata under one AND', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
    await adapter.query({ bindingKey: 'b', scope: { companyId: 'acme', agentId: 'planner' }, query: 'deploy window', topK: 5, metadataFilter: { topic: 'deploys', tags: ['ops'] } });
    const first = await adapter.list({ bindingKey: 'b', scope: { companyId: 'acme', projectId: 'apollo' }, limit: 2 });
    expect(first.nextCursor).toBeUndefined();
    const page = await adapter.list({ bindingKey: 'b', scope, limit: 2 });
    await adapter.list({ bindingKey: 'b', scope, limit: 2, cursor: page.nextCursor });
    expect(bodiesTo(testServer, 'POST', '/v3/memories/search/')).toMatchInlineSnapshot(`
      [
        {
          "filters": {
            "AND": [
              {
                "app_id": "acme",
              },
              {
                "metadata": {
                  "memplane_agent": "planner",
                },
              },
              {
                "metadata": {
                  "topic": "deploys",
                },
              },
              {
                "metadata": {
                  "memplane_eq_l4wviUE1TPVSgxu4tbZIuz": "WzgcRR3_VWENUosPnenwdG",
                },
              },
            ],
          },
          "output_format": "v1.1",
          "query": "deploy window",
          "top_k": 5,
        },
      ]
    `);
    expect(testServer.calls.filter((call) => call.pathname === '/v3/memories/').map((call) => ({ query: call.searchParams, body: call.bodyJson }))).toMatchInlineSnapshot(`
      [
        {
          "body": {
            "filters": {
              "AND": [
                {
                  "app_id": "acme",
                },
                {
                  "metadata": {
                    "memplane_project": "apollo",
                  },
                },
              ],
            },
          },
          "query": {
            "page": "1",
            "page_size": "2",
          },
        },
        {
          "body": {
            "filters": {
              "AND": [
                {
                  "app_id": "acme",
                },
                {
                  "metadata": {
                    "memplane_agent": "planner",
                  },
                },
                {
                  "metadata": {
                    "memplane_run": "run-7",
                  },
                },
                {
                  "metadata": {
                    "memplane_subject": "alice",
                  },
                },
              ],
            },
          },
          "query": {
            "page": "1",
            "page_size": "2",
          },
        },
        {
          "body": {
            "filters": {
              "AND": [
                {
                  "app_id": "acme",
                },
                {
                  "metadata": {
                    "memplane_agent": "planner",
                  },
                },
                {
                  "metadata": {
                    "memplane_run": "run-7",
                  },
                },
                {
                  "metadata": {
                    "memplane_subject": "alice",
                  },
                },
                {
                  "created_at": {
                    "gt": "2026-01-15T10:30:00.250123-07:00",
                  },
                },
              ],
            },
          },
          "query": {
            "page": "1",
            "page_size": "1",
          },
        },
        {
          "body": {
            "filters": {
              "AND": [
                {
                  "app_id": "acme",
                },
                {
                  "metadata": {
                    "memplane_agent": "planner",
                  },
                },
                {
                  "metadata": {
                    "memplane_run": "run-7",
                  },
                },
                {
                  "metadata": {
                    "memplane_subject": "alice",
                  },
                },
                {
                  "created_at": {
                    "lte": "2026-01-15T10:30:00.250123-07:00",
                  },
                },
              ],
            },
          },
          "query": {
            "page": "1",
            "page_size": "4",
          },
        },
      ]
    `);
  });

  it('forget and correct: scope check by memory_ids, batchDelete, and update with the merged metadata', async () => {
    const adapter = createTestAdapter(fake);
    const written = await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'one', metadata: { kept: 1 } }, { text: 'two', metadata: { kept: 1 } }, { text: 'three', metadata: { kept: 1 } }] });
    const [first, second, third] = written.records ?? [];
    if (first === undefined || second === undefined || third === undefined) throw new TypeError('three handles expected');
    const before = testServer.calls.length;
    await adapter.correct(first, { text: 'uno', metadata: { changed: true }, reason: 'typo' }, scope);
    await adapter.forget([second, third], scope);
    expect(testServer.calls.slice(before).map((call) => ({ method: call.method, path: call.pathname, body: call.bodyJson }))).toMatchInlineSnapshot(`
      [
        {
          "body": undefined,
          "method": "GET",
          "path": "/v1/memories/00000000-0000-4000-8000-000000000005/",
        },
        {
          "body": {
            "metadata": {
              "changed": true,
              "kept": 1,
              "memplane_agent": "planner",
              "memplane_company": "acme",
              "memplane_correction_reason": "typo",
              "memplane_run": "run-7",
              "memplane_subject": "alice",
            },
            "text": "uno",
          },
          "method": "PUT",
          "path": "/v1/memories/00000000-0000-4000-8000-000000000005/",
        },
        {
          "body": {
            "filters": {
              "AND": [
                {
                  "app_id": "acme",
                },
                {
                  "metadata": {
                    "memplane_agent": "planner",
                  },
                },
                {
                  "metadata": {
                    "memplane_run": "run-7",
                  },
                },
                {
                  "metadata": {
                    "memplane_subject": "alice",
                  },
                },
                {
                  "memory_ids": [
                    "00000000-0000-4000-8000-000000000006",
                    "00000000-0000-4000-8000-000000000007",
                  ],
                },
              ],
            },
          },
          "method": "POST",
          "path": "/v3/memories/",
        },
        {
          "body": {
            "memories": [
              {
                "memory_id": "00000000-0000-4000-8000-000000000007",
              },
              {
                "memory_id": "00000000-0000-4000-8000-000000000006",
              },
            ],
          },
          "method": "DELETE",
          "path": "/v1/batch/",
        },
      ]
    `);
  });
});
