import { afterEach, describe, expect, it } from 'vitest';
import { comment, commentEvent, company, createDownProvider, documentEvent, issue, runEvent } from './test-support/paperclip-fixtures';
import { behaveLikeRealHost, type HostDocumentWrite } from './test-support/paperclip-real-host';
import { rememberShared, startWorker, workerModes, type StartedWorker } from './test-support/worker-harness';

const markdownCompany = (hooks: Record<string, boolean> = {}) => ({ bindings: [{ key: 'default', providerId: 'markdown', hooks }], default: 'default' });
const run = (companyId: string, agentId: string, runId: string) => ({ companyId, agentId, runId, projectId: `${companyId}-project` });

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

// Every scenario runs with the service hosted in the worker and with a real memplane serve reached over ctx.http,
// on a harness that behaves like a real Paperclip host (comments newest first, documents updated only
// with a base revision) and with the host's event shapes (the company in the envelope only).
describe.each(workerModes)('with the service in %s mode', (mode) => {
  describe('pre_run_hydrate on agent.run.started', () => {
    it('recalls with the issue title and description, caches the preamble for the run, serves it through memory_search once and as an issue document', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'Deploy schedule', 'When do deploys happen after the freeze?')] });
      const noted = await harness.executeTool('memory_note', { text: 'Deploys happen on Tuesdays after the freeze.' }, run('acme', 'planner', 'run-0'));
      expect(noted.error).toBeUndefined();
      await rememberShared(worker, 'acme', 'Deploys after the freeze need the release manager on call.');

      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }));

      const cached = (await harness.ctx.state.get({ scopeKind: 'run', scopeId: 'run-1', namespace: 'memplane', stateKey: 'hydration' })) as { preamble: string; issueId: string };
      expect(cached.preamble).toMatch(/^## Remembered context \(advisory\)/);
      expect(cached.preamble).toContain('Deploys happen on Tuesdays');
      expect(cached.issueId).toBe('iss-1');
      expect(cached.preamble).toContain('release manager on call');
      // The document is read by the whole company: the shared memory only, not the planner's own note.
      const document = await harness.ctx.issues.documents.get('iss-1', 'memplane-memory', 'acme');
      expect(document?.body).toContain('release manager on call');
      expect(document?.body).not.toContain('Deploys happen on Tuesdays');

      const first = await harness.executeTool('memory_search', { query: 'office plants' }, run('acme', 'planner', 'run-1'));
      expect(first.error).toBeUndefined();
      expect(first.content?.startsWith(cached.preamble)).toBe(true);
      expect((first.data as { preamble?: string }).preamble).toBe(cached.preamble);
      const second = await harness.executeTool('memory_search', { query: 'office plants' }, run('acme', 'planner', 'run-1'));
      expect(second.content).not.toContain('Remembered context');

      // Everything inside the run is logged included_in_run and linked to it.
      const operations = await worker.operations('acme', { runId: 'run-1' });
      expect(operations.map((entry) => [entry.operation, entry.hookKind ?? 'tool'])).toEqual([
        ['query', 'pre_run_hydrate'],
        ['query', 'tool'],
        ['query', 'tool'],
      ]);
      for (const entry of operations) {
        expect(entry).toMatchObject({ status: 'succeeded', heartbeatRunId: 'run-1', attributionMode: 'included_in_run' });
        expect(entry.costEventId).toBeUndefined();
      }
    });

    it('gives a run context of another company no access to a cached preamble, even with the same run and agent ids', async () => {
      worker = await startWorker({ acme: markdownCompany(), globex: markdownCompany() }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme'), company('globex')], issues: [issue('acme', 'iss-1', 'Deploy schedule', 'When do deploys happen?')] });
      await harness.executeTool('memory_note', { text: 'Deploys happen on Tuesdays.' }, run('acme', 'planner', 'run-0'));
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }));
      // The same run and agent ids presented by a globex run context: the state is acme's, so globex reads none of it.
      const foreign = await harness.executeTool('memory_search', { query: 'deploys' }, run('globex', 'planner', 'run-1'));
      expect(foreign.error).toBeUndefined();
      expect(foreign.content).toBe('No memories matched.');
      expect(foreign.data).not.toHaveProperty('preamble');
    });
  });

  describe('issue_comment_capture on issue.comment.created', () => {
    it('captures the full body, not the snippet, attributed to the agent and run that wrote it', async () => {
      worker = await startWorker({ acme: markdownCompany({ issueCommentCapture: true }) }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      const body = `${'Context on the rollout plan. '.repeat(8)}The staging cluster is called Kestrel.`;
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Rollout', 'Plan the rollout')],
        issueComments: [comment('acme', 'iss-1', 'cmt-1', body, { agentId: 'builder', runId: 'run-7' })],
      });
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1', body, agentId: 'builder', runId: 'run-7' }));

      const [capture] = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(capture).toMatchObject({
        status: 'succeeded',
        hookKind: 'issue_comment_capture',
        heartbeatRunId: 'run-7',
        attributionMode: 'included_in_run',
        scope: { companyId: 'acme', agentId: 'builder', issueId: 'iss-1', projectId: 'acme-project' },
        source: { kind: 'issue_comment', issueId: 'iss-1', commentId: 'cmt-1' },
      });
      // "Kestrel" is past the 120-character snippet: only the full body has it.
      const found = await harness.executeTool('memory_search', { query: 'Kestrel staging cluster' }, run('acme', 'builder', 'run-8'));
      expect(found.content).toContain('Kestrel');
    });

    it('captures a redelivered event id once, and a second event about the same comment once', async () => {
      worker = await startWorker({ acme: markdownCompany({ issueCommentCapture: true }) }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Rollout', 'Plan the rollout')],
        issueComments: [comment('acme', 'iss-1', 'cmt-1', 'Rollbacks need two approvals.', { userId: 'alice' })],
      });
      const event = (eventId: string) => commentEvent('acme', 'iss-1', { commentId: 'cmt-1', body: 'Rollbacks need two approvals.' }, eventId);
      await harness.emit('issue.comment.created', ...event('evt-1'));
      await harness.emit('issue.comment.created', ...event('evt-1'));
      await harness.emit('issue.comment.created', ...event('evt-2'));
      await Promise.all([1, 2, 3].map(() => harness.emit('issue.comment.created', ...event('evt-3'))));
      const captures = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(captures).toHaveLength(1);
    });

    it('does not capture when the binding did not opt in', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'Rollout', 'x')], issueComments: [comment('acme', 'iss-1', 'cmt-1', 'Not to be kept.', { userId: 'alice' })] });
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1' }));
      expect((await worker.operations('acme')).filter((entry) => entry.operation === 'capture')).toEqual([]);
    });
  });

  describe('issue_document_capture', () => {
    it('captures each document revision once, and never its own preamble document', async () => {
      worker = await startWorker({ acme: markdownCompany({ issueDocumentCapture: true }) }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'Design', 'The design')] });
      const v1 = await harness.ctx.issues.documents.upsert({ issueId: 'iss-1', key: 'plan', body: 'Plan v1: ship the importer first.', companyId: 'acme' });
      await harness.emit('issue.document.created', ...documentEvent('acme', 'iss-1', { key: 'plan', revisionNumber: 1 }));
      await harness.emit('issue.document.updated', ...documentEvent('acme', 'iss-1', { key: 'plan', revisionNumber: 1 }));
      // A user's update names the revision it replaces, as the host requires.
      const v2: HostDocumentWrite = { issueId: 'iss-1', key: 'plan', body: 'Plan v2: ship the exporter first.', companyId: 'acme', baseRevisionId: v1.latestRevisionId! };
      await harness.ctx.issues.documents.upsert(v2);
      await harness.emit('issue.document.updated', ...documentEvent('acme', 'iss-1', { key: 'plan', revisionNumber: 2 }));
      await harness.emit('issue.document.updated', ...documentEvent('acme', 'iss-1', { key: 'plan', revisionNumber: 2 }));
      await harness.ctx.issues.documents.upsert({ issueId: 'iss-1', key: 'memplane-memory', body: '## Remembered context (advisory)\n- x', companyId: 'acme' });
      await harness.emit('issue.document.updated', ...documentEvent('acme', 'iss-1', { key: 'memplane-memory' }));

      const captures = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(captures.map((entry) => [entry.hookKind, entry.source?.documentKey])).toEqual([
        ['issue_document_capture', 'plan'],
        ['issue_document_capture', 'plan'],
      ]);
    });
  });

  describe('post_run_capture on agent.run.finished, failed and cancelled', () => {
    it('captures the comments the run wrote as its output, once per run, and drops the run cache', async () => {
      worker = await startWorker({ acme: markdownCompany({ postRunCapture: true }) }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Importer', 'Write the importer')],
        issueComments: [
          comment('acme', 'iss-1', 'cmt-1', 'Done: the importer reads CSV with a header row.', { agentId: 'builder', runId: 'run-3' }),
          comment('acme', 'iss-1', 'cmt-2', 'Someone else wrote this.', { userId: 'alice' }),
        ],
      });
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-3', agentId: 'builder', issueId: 'iss-1' }));
      await harness.emit('agent.run.finished', ...runEvent('acme', { runId: 'run-3', agentId: 'builder', issueId: 'iss-1', status: 'succeeded' }, 'fin-1'));
      await harness.emit('agent.run.cancelled', ...runEvent('acme', { runId: 'run-3', agentId: 'builder', issueId: 'iss-1', status: 'cancelled' }, 'fin-2'));

      const captures = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(captures).toHaveLength(1);
      expect(captures[0]).toMatchObject({ hookKind: 'post_run_capture', heartbeatRunId: 'run-3', attributionMode: 'included_in_run', scope: { agentId: 'builder', issueId: 'iss-1' } });
      expect(await harness.ctx.state.get({ scopeKind: 'run', scopeId: 'run-3', namespace: 'memplane', stateKey: 'hydration' })).toBeNull();
      const found = await harness.executeTool('memory_search', { query: 'importer CSV header' }, run('acme', 'builder', 'run-4'));
      expect(found.content).toContain('CSV with a header row');
      expect(found.content).not.toContain('Someone else');
    });

    it('captures what a failed run wrote, and nothing for a run that wrote no comment', async () => {
      worker = await startWorker({ acme: markdownCompany({ postRunCapture: true }) }, {}, behaveLikeRealHost, mode);
      const { harness } = worker;
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Migration', 'Run the migration')],
        issueComments: [comment('acme', 'iss-1', 'cmt-1', 'The migration stopped: table invoices is locked by the nightly export.', { agentId: 'builder', runId: 'run-5' })],
      });
      await harness.emit('agent.run.failed', ...runEvent('acme', { runId: 'run-5', agentId: 'builder', issueId: 'iss-1', status: 'failed' }, 'fail-1'));
      await harness.emit('agent.run.failed', ...runEvent('acme', { runId: 'run-6', agentId: 'builder', issueId: 'iss-1', status: 'failed' }, 'fail-2'));

      const captures = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(captures.map((entry) => [entry.hookKind, entry.heartbeatRunId])).toEqual([['post_run_capture', 'run-5']]);
      const found = await harness.executeTool('memory_search', { query: 'invoices locked nightly export' }, run('acme', 'builder', 'run-7'));
      expect(found.content).toContain('locked by the nightly export');
    });
  });
});
