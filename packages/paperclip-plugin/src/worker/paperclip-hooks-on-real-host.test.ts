import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryValidationError } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { readIssueMemoryData } from './memory-ui-data';
import { comment, commentEvent, company, issue, runEvent } from './test-support/paperclip-fixtures';
import { baseRevisionRequired, behaveLikeRealHost } from './test-support/paperclip-real-host';
import { forgetShared, rememberShared, startWorker, workerModes, type StartedWorker } from './test-support/worker-harness';

// The hooks where a real Paperclip host (2026.916.1) differs from the SDK's fake host: documents
// refuse an update without a base revision, comments come newest first, and event payloads have
// the host's shapes (the company only in the envelope).

const markdownCompany = (hooks: Record<string, boolean> = {}) => ({ bindings: [{ key: 'default', providerId: 'markdown', hooks }], default: 'default' });
const run = (companyId: string, agentId: string, runId: string) => ({ companyId, agentId, runId, projectId: `${companyId}-project` });
const minute = (n: number) => new Date(Date.UTC(2026, 10, 24, 10, n));
const preambleKey = 'memplane-memory';

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

/** The markdown resources under a folder: the captured text as the provider was given it. */
async function resourcesUnder(folder: string): Promise<string> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.md') && entry.parentPath.endsWith('resources')).sort((left, right) => join(left.parentPath, left.name).localeCompare(join(right.parentPath, right.name)));
  return (await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')))).join('\n');
}

/** The texts the company's memory holds for an issue, as the issue tab lists them. */
async function recordTexts(started: StartedWorker, companyId: string, issueId: string): Promise<string[]> {
  const service = started.plugin.service();
  if (service === undefined) throw new TypeError('the worker has no service');
  return (await readIssueMemoryData(service, { companyId, issueId })).records.map((record) => record.text);
}

describe.each(workerModes)('on a real host, service in %s mode', (mode) => {
  describe('pre_run_hydrate', () => {
    it('refreshes the preamble document on every run of the issue, though the host refuses an update without a base revision', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      behaveLikeRealHost(harness);
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'Deploy schedule', 'When do deploys happen after the freeze?')] });
      await rememberShared(worker, 'acme', 'Deploys happen on Tuesdays after the freeze.');
      // The wrapped host refuses what the real one refuses.
      await harness.ctx.issues.documents.upsert({ issueId: 'iss-1', key: 'probe', body: 'v1', companyId: 'acme' });
      await expect(harness.ctx.issues.documents.upsert({ issueId: 'iss-1', key: 'probe', body: 'v2', companyId: 'acme' })).rejects.toThrow(baseRevisionRequired);

      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }));
      expect((await harness.ctx.issues.documents.get('iss-1', preambleKey, 'acme'))?.body).toContain('Deploys happen on Tuesdays');

      await rememberShared(worker, 'acme', 'Deploys after the freeze need a second approver.');
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-2', agentId: 'planner', issueId: 'iss-1' }));
      const refreshed = await harness.ctx.issues.documents.get('iss-1', preambleKey, 'acme');
      expect(refreshed?.body).toContain('second approver');
      const cached = (await harness.ctx.state.get({ scopeKind: 'run', scopeId: 'run-2', namespace: 'memplane', stateKey: 'hydration' })) as { preamble: string };
      expect(refreshed?.body).toBe(cached.preamble);
      expect(harness.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('removes its old preamble document when a run recalls nothing, and leaves a document someone else wrote under the key', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      behaveLikeRealHost(harness);
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Deploy schedule', 'When do deploys happen?'), issue('acme', 'iss-2', 'Deploy window', 'Which deploy window?')],
      });
      const noted = await rememberShared(worker, 'acme', 'Deploys happen on Tuesdays.');
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }));
      expect(await harness.ctx.issues.documents.get('iss-1', preambleKey, 'acme')).not.toBeNull();
      await forgetShared(worker, 'acme', noted);
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-2', agentId: 'planner', issueId: 'iss-1' }));
      // The forgotten text stays in no preamble document.
      expect(await harness.ctx.issues.documents.get('iss-1', preambleKey, 'acme')).toBeNull();

      // A document under the key that a user wrote is not the worker's to delete.
      const seeded = await harness.ctx.issues.documents.upsert({ issueId: 'iss-2', key: preambleKey, body: 'Our own notes.', companyId: 'acme' });
      Object.assign(seeded, { createdByUserId: 'alice' });
      await rememberShared(worker, 'acme', 'The deploy window opens at 9.');
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-3', agentId: 'planner', issueId: 'iss-2' }));
      expect((await harness.ctx.issues.documents.get('iss-2', preambleKey, 'acme'))?.body).toBe('Our own notes.');
      expect(harness.logs.some((entry) => entry.level === 'warn' && /someone else wrote/.test(entry.message))).toBe(true);
    });

    it('is listed in the issue tab under the run agent and issue, and still recalls from the whole company', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      behaveLikeRealHost(harness);
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'Deploy schedule', 'When do deploys happen?')] });
      // Noted outside the issue: a recall narrowed to the issue would not find it.
      await harness.executeTool('memory_note', { text: 'Deploys happen on Tuesdays.' }, { companyId: 'acme', agentId: 'planner', runId: 'run-0' });
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }));

      const service = worker.plugin.service();
      if (service === undefined) throw new TypeError('the worker has no service');
      await service.flush();
      await worker.service.flush();
      const tab = await readIssueMemoryData(service, { companyId: 'acme', issueId: 'iss-1' });
      expect(tab.operations.map(({ operation, hookKind, agentId, runId, resultCount }) => ({ operation, hookKind, agentId, runId, resultCount }))).toEqual([
        { operation: 'query', hookKind: 'pre_run_hydrate', agentId: 'planner', runId: 'run-1', resultCount: 1 },
      ]);
    });
  });

  describe('pre_run_hydrate against a memory service that knows no issue link', () => {
    it('recalls without the link and says so, rather than not hydrating', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      behaveLikeRealHost(harness);
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'Deploy schedule', 'When do deploys happen?')] });
      await rememberShared(worker, 'acme', 'Deploys happen on Tuesdays.');
      const service = worker.plugin.service();
      if (service === undefined) throw new TypeError('the worker has no service');
      // What a memplane serve of an earlier release answers: its strict input schema has no issueId.
      const hydrate = service.hooks.preRunHydrate.bind(service.hooks);
      const refused: unknown[] = [];
      service.hooks.preRunHydrate = async (context, input) => {
        if ('issueId' in input || 'projectId' in input) {
          refused.push(input);
          throw new MemoryValidationError({ target: 'hooks.preRunHydrate request', issues: [{ path: 'input.issueId', message: 'Unrecognized keys: "issueId", "projectId"' }] });
        }
        return hydrate(context, input);
      };
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }));

      expect(refused).toHaveLength(1);
      expect((await harness.ctx.issues.documents.get('iss-1', preambleKey, 'acme'))?.body).toContain('Deploys happen on Tuesdays');
      expect(harness.logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([expect.stringMatching(/refused the hydration issue link/)]);
      expect(harness.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    });
  });

  describe('post_run_capture', () => {
    it('keeps the run comments in the order the run wrote them, though the host lists them newest first', async () => {
      worker = await startWorker({ acme: markdownCompany({ postRunCapture: true }) }, {}, undefined, mode);
      const { harness } = worker;
      behaveLikeRealHost(harness);
      const by = { agentId: 'builder', runId: 'run-3' };
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Importer', 'Write the importer')],
        // Seeded out of order: only the creation time says which came first.
        issueComments: [
          comment('acme', 'iss-1', 'cmt-b', 'Second: the parser handles quoted fields.', by, minute(2)),
          comment('acme', 'iss-1', 'cmt-c', 'Third: the importer is done.', by, minute(3)),
          comment('acme', 'iss-1', 'cmt-a', 'First: I will start with the CSV parser.', by, minute(1)),
          comment('acme', 'iss-1', 'cmt-x', 'A reviewer wrote this.', { userId: 'alice' }, minute(4)),
        ],
      });
      await harness.emit('agent.run.finished', ...runEvent('acme', { runId: 'run-3', agentId: 'builder', issueId: 'iss-1', status: 'succeeded' }));

      const captures = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(captures.map((entry) => entry.hookKind)).toEqual(['post_run_capture']);
      // The markdown memory keeps the output as it was given.
      const kept = await resourcesUnder(join(worker.folder, 'markdown', 'acme'));
      const at = ['First: I will start', 'Second: the parser', 'Third: the importer'].map((text) => kept.indexOf(text));
      expect(at.every((index) => index >= 0)).toBe(true);
      expect([...at].sort((left, right) => left - right)).toEqual(at);
      expect(kept).not.toContain('A reviewer wrote this');
    });
  });

  describe('comment capture and post-run capture together', () => {
    const both = markdownCompany({ issueCommentCapture: true, postRunCapture: true });
    const seedRun = (started: StartedWorker) => {
      const by = { agentId: 'builder', runId: 'run-5' };
      started.harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Migration', 'Run the migration')],
        issueComments: [
          comment('acme', 'iss-1', 'cmt-1', 'The invoices table is locked by the nightly export.', by, minute(1)),
          comment('acme', 'iss-1', 'cmt-2', 'Migration finished after the export.', by, minute(2)),
        ],
      });
    };

    it('store each agent comment once: the run output leaves out what comment capture kept', async () => {
      worker = await startWorker({ acme: both }, {}, undefined, mode);
      behaveLikeRealHost(worker.harness);
      seedRun(worker);
      const { harness } = worker;
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1', body: 'The invoices table is locked by the nightly export.', agentId: 'builder', runId: 'run-5' }));
      await harness.emit('agent.run.finished', ...runEvent('acme', { runId: 'run-5', agentId: 'builder', issueId: 'iss-1', status: 'succeeded' }));

      const texts = await recordTexts(worker, 'acme', 'iss-1');
      expect(texts.filter((text) => text.includes('invoices table is locked'))).toHaveLength(1);
      expect(texts.filter((text) => text.includes('Migration finished'))).toHaveLength(1);
      const captures = (await worker.operations('acme')).filter((entry) => entry.operation === 'capture');
      expect(captures.map((entry) => [entry.hookKind, entry.source?.kind])).toEqual([
        ['issue_comment_capture', 'issue_comment'],
        ['post_run_capture', 'run'],
      ]);
    });

    it('store each agent comment once when the run ends before the comment event arrives', async () => {
      worker = await startWorker({ acme: both }, {}, undefined, mode);
      behaveLikeRealHost(worker.harness);
      seedRun(worker);
      const { harness } = worker;
      await harness.emit('agent.run.finished', ...runEvent('acme', { runId: 'run-5', agentId: 'builder', issueId: 'iss-1', status: 'succeeded' }));
      // The thread is read whole on a real host: a comment already kept is not worth a read.
      const listComments = harness.ctx.issues.listComments.bind(harness.ctx.issues);
      let threadReads = 0;
      harness.ctx.issues.listComments = async (issueId, companyId) => {
        threadReads += 1;
        return listComments(issueId, companyId);
      };
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-2', agentId: 'builder', runId: 'run-5' }));
      expect(threadReads).toBe(0);

      const texts = await recordTexts(worker, 'acme', 'iss-1');
      expect(texts.filter((text) => text.includes('Migration finished'))).toHaveLength(1);
      expect((await worker.operations('acme')).filter((entry) => entry.operation === 'capture').map((entry) => entry.hookKind)).toEqual(['post_run_capture']);
    });

    it('store each agent comment once when the comment events and the run end race, and on redelivery', async () => {
      worker = await startWorker({ acme: both }, {}, undefined, mode);
      behaveLikeRealHost(worker.harness);
      seedRun(worker);
      const { harness } = worker;
      const deliveries = [
        () => harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1', agentId: 'builder', runId: 'run-5' }, 'evt-c1')),
        () => harness.emit('agent.run.finished', ...runEvent('acme', { runId: 'run-5', agentId: 'builder', issueId: 'iss-1', status: 'succeeded' }, 'evt-fin')),
        () => harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-2', agentId: 'builder', runId: 'run-5' }, 'evt-c2')),
      ];
      await Promise.all(deliveries.map((deliver) => deliver()));
      await Promise.all(deliveries.map((deliver) => deliver()));

      const texts = await recordTexts(worker, 'acme', 'iss-1');
      expect(texts.filter((text) => text.includes('invoices table is locked'))).toHaveLength(1);
      expect(texts.filter((text) => text.includes('Migration finished'))).toHaveLength(1);
    });

    it('keep a comment in the run output when the binding skipped comment capture', async () => {
      worker = await startWorker({ acme: markdownCompany({ postRunCapture: true }) }, {}, undefined, mode);
      behaveLikeRealHost(worker.harness);
      seedRun(worker);
      const { harness } = worker;
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1', agentId: 'builder', runId: 'run-5' }));
      await harness.emit('agent.run.finished', ...runEvent('acme', { runId: 'run-5', agentId: 'builder', issueId: 'iss-1', status: 'failed' }));

      expect((await recordTexts(worker, 'acme', 'iss-1')).sort()).toEqual(['Migration finished after the export.', 'The invoices table is locked by the nightly export.']);
      expect((await worker.operations('acme')).filter((entry) => entry.operation === 'capture').map((entry) => entry.hookKind)).toEqual(['post_run_capture']);
    });
  });

  describe('event payloads', () => {
    it('take the company from the event envelope, whatever the payload says', async () => {
      worker = await startWorker({ acme: markdownCompany({ issueCommentCapture: true }), globex: markdownCompany({ issueCommentCapture: true }) }, {}, undefined, mode);
      const { harness } = worker;
      behaveLikeRealHost(harness);
      harness.seed({
        companies: [company('acme'), company('globex')],
        issues: [issue('acme', 'iss-1', 'Rollout', 'Plan the rollout')],
        issueComments: [comment('acme', 'iss-1', 'cmt-1', 'Rollbacks need two approvals.', { userId: 'alice' })],
      });
      const [payload, envelope] = commentEvent('acme', 'iss-1', { commentId: 'cmt-1' });
      await harness.emit('issue.comment.created', { ...payload, companyId: 'globex' }, envelope);

      expect(await recordTexts(worker, 'acme', 'iss-1')).toEqual(['Rollbacks need two approvals.']);
      expect(await worker.operations('globex')).toEqual([]);
    });
  });
});
