import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comment, company, issue } from './test-support/paperclip-fixtures';
import { startWorker, workerModes, type StartedWorker } from './test-support/worker-harness';
import { filesUnder } from './test-support/files-under';

const allHooks = { issueCommentCapture: true, issueDocumentCapture: true, postRunCapture: true };
const markdownCompany = { bindings: [{ key: 'default', providerId: 'markdown', hooks: allHooks }], default: 'default' };
const globexSecret = 'Globex merger closes on Friday';
const eventTypes = ['agent.run.started', 'agent.run.finished', 'agent.run.failed', 'agent.run.cancelled', 'issue.comment.created', 'issue.document.created', 'issue.document.updated'] as const;


// Ids an attacker would try: the other company's, empty, huge, with control characters, or not strings at all.
const hostileId = fc.oneof(
  { arbitrary: fc.constantFrom('g-1', 'g-c1', 'g-run', 'g-agent', 'plan'), weight: 6 },
  fc.constantFrom('a-1', '', ' ', '../globex', 'memplane-memory'),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 400 }),
  fc.constantFrom(null, 42, true, ['g-1'], { id: 'g-1' }),
);
const hostilePayload = fc.record(
  { runId: hostileId, agentId: hostileId, issueId: hostileId, commentId: hostileId, key: hostileId, documentKey: hostileId, status: hostileId, companyId: fc.constantFrom('acme', 'globex'), bodySnippet: fc.constant(globexSecret) },
  { requiredKeys: [] },
);

describe.each(workerModes)('hostile event payloads, service in %s mode', (mode) => {
  let worker: StartedWorker;
  beforeAll(async () => {
    worker = await startWorker({ acme: markdownCompany, globex: markdownCompany }, {}, undefined, mode);
    worker.harness.seed({
      companies: [company('acme'), company('globex')],
      issues: [issue('acme', 'a-1', 'Acme work', 'Acme description'), issue('globex', 'g-1', 'Merger', globexSecret)],
      issueComments: [comment('globex', 'g-1', 'g-c1', globexSecret, { agentId: 'g-agent', runId: 'g-run' })],
    });
    await worker.harness.ctx.issues.documents.upsert({ issueId: 'g-1', key: 'plan', body: globexSecret, companyId: 'globex' });
  });
  afterAll(async () => {
    await worker.stop();
  });


  it('never throw at the host, and never move another company\'s text into the event\'s company', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...eventTypes), hostilePayload, fc.option(hostileId, { nil: undefined }), async (eventType, payload, entityId) => {
        await expect(
          worker.harness.emit(eventType, payload, { companyId: 'acme', ...(typeof entityId === 'string' ? { entityId } : {}) }),
        ).resolves.toBeUndefined();
      }),
      {
        numRuns: 60,
        // The attacks that matter most, always tried: globex's own ids, with globex named in the payload.
        examples: [
          ['issue.comment.created', { commentId: 'g-c1', issueId: 'g-1', companyId: 'globex' }, 'g-1'],
          ['issue.document.updated', { issueId: 'g-1', key: 'plan', companyId: 'globex' }, 'g-1'],
          ['agent.run.started', { runId: 'g-run', agentId: 'g-agent', issueId: 'g-1', companyId: 'globex' }, 'g-run'],
          ['agent.run.finished', { runId: 'g-run', agentId: 'g-agent', issueId: 'g-1', companyId: 'globex' }, 'g-run'],
        ],
      },
    );
    await worker.service.flush();
    expect(await filesUnder(join(worker.folder, 'markdown', 'acme'))).not.toContain(globexSecret);
    expect(await worker.operations('globex')).toEqual([]);
    const state = await worker.harness.ctx.issues.documents.get('g-1', 'memplane-memory', 'globex');
    expect(state).toBeNull();
  });
});
