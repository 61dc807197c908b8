import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { bodiesTo, createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers, { faultUrls: fake.faultUrls });
const scope = { companyId: 'acme', agentId: 'planner', subjectId: 'alice', runId: 'run-7' };
const source = { kind: 'issue_comment' as const, companyId: 'acme', issueId: 'ISS-1', commentId: 'C-9' };

describe('the write requests the mem0 adapter sends', () => {
  it('upsertRecords: one add with infer false, company-qualified entity ids, scope and provenance in metadata', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.upsertRecords({
      bindingKey: 'b',
      scope,
      source,
      records: [
        { text: 'Deploys happen on Tuesdays.', metadata: { topic: 'deploys', tags: ['ops'] } },
        { text: 'Reviews want small pull requests.', metadata: { topic: 'deploys', tags: ['ops'] } },
        { text: 'Alice prefers tea.', summary: 'tea' },
      ],
    });
    expect(bodiesTo(testServer, 'POST', '/v3/memories/add/')).toMatchInlineSnapshot(`
      [
        {
          "agent_id": "acme~planner",
          "app_id": "acme",
          "infer": false,
          "messages": [
            {
              "content": "Deploys happen on Tuesdays.",
              "role": "user",
            },
            {
              "content": "Reviews want small pull requests.",
              "role": "user",
            },
          ],
          "metadata": {
            "memplane_agent": "planner",
            "memplane_company": "acme",
            "memplane_eq_l4wviUE1TPVSgxu4tbZIuz": "WzgcRR3_VWENUosPnenwdG",
            "memplane_run": "run-7",
            "memplane_source": {
              "commentId": "C-9",
              "companyId": "acme",
              "issueId": "ISS-1",
              "kind": "issue_comment",
            },
            "memplane_subject": "alice",
            "tags": [
              "ops",
            ],
            "topic": "deploys",
          },
          "run_id": "acme~run-7.23gSCMcRnWuvJlYtFGYK8yYz",
          "user_id": "acme~alice",
        },
        {
          "agent_id": "acme~planner",
          "app_id": "acme",
          "infer": false,
          "messages": [
            {
              "content": "Alice prefers tea.",
              "role": "user",
            },
          ],
          "metadata": {
            "memplane_agent": "planner",
            "memplane_company": "acme",
            "memplane_run": "run-7",
            "memplane_source": {
              "commentId": "C-9",
              "companyId": "acme",
              "issueId": "ISS-1",
              "kind": "issue_comment",
            },
            "memplane_subject": "alice",
            "memplane_summary": "tea",
          },
          "run_id": "acme~run-7.23020hSyJYZDEfPiRNXZ8wI-",
          "user_id": "acme~alice",
        },
      ]
    `);
  });

  it('capture: add with infer true and the hook in metadata', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.capture({
      bindingKey: 'b',
      scope: { companyId: 'acme', agentId: 'planner' },
      source,
      payload: { text: 'We ship on Tuesdays. Alice prefers tea.' },
      hook: { hookKind: 'issue_comment_capture', hookId: 'hook-1', triggeredAt: '2026-11-01T10:00:00Z' },
      metadata: { channel: 'support' },
    });
    expect(bodiesTo(testServer, 'POST', '/v3/memories/add/')).toMatchInlineSnapshot(`
      [
        {
          "agent_id": "acme~planner",
          "app_id": "acme",
          "infer": true,
          "messages": [
            {
              "content": "We ship on Tuesdays. Alice prefers tea.",
              "role": "user",
            },
          ],
          "metadata": {
            "channel": "support",
            "memplane_agent": "planner",
            "memplane_company": "acme",
            "memplane_hook": {
              "hookId": "hook-1",
              "hookKind": "issue_comment_capture",
              "triggeredAt": "2026-11-01T10:00:00Z",
            },
            "memplane_source": {
              "commentId": "C-9",
              "companyId": "acme",
              "issueId": "ISS-1",
              "kind": "issue_comment",
            },
          },
        },
      ]
    `);
  });
});
