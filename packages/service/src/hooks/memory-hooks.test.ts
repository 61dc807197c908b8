import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createLeakyProvider, createTestService } from '../test-support/service-test-support';
import { preambleHeader } from './build-preamble';
import type { MemoryHookDelivery } from './hook-firing';

const system = as(actors.heartbeat, { companyId: 'acme' });

describe('hooks', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;

  beforeEach(async () => {
    ({ service, cleanUp } = await createTestService({ hydration: { maxSnippets: 3 } }));
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory', { hooks: { issueCommentCapture: true } });
    const admin = service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'builder-own', providerId: 'memory', hooks: { postRunCapture: true } });
    await admin.setTarget({ targetType: 'agent', agentId: 'builder' }, 'builder-own');
  });
  afterEach(async () => {
    vi.useRealTimers();
    await cleanUp();
  });

  describe('pre_run_hydrate', () => {
    it('queries the agent binding with intent agent_preamble and returns a preamble within the caps', async () => {
      await service.runtime(system).upsertRecords({
        source: { kind: 'issue', issueId: 'ACME-1' },
        records: [
          { text: 'Deploys happen on Tuesdays after the freeze.' },
          { text: 'Deploy windows are\n\n# announced   in #ops.' },
          { text: `Deploy checklist: ${'verify backups, '.repeat(30)}then ship.` },
          { text: 'Deploy rollback takes ten minutes.' },
        ],
      });
      const hydration = await service.hooks.preRunHydrate(system, {
        agentId: 'planner',
        query: 'deploy checklist and deploy windows',
        heartbeatRunId: 'run-1',
        limits: { maxSnippetCharacters: 80 },
      });
      expect(hydration).toMatchObject({ hookKind: 'pre_run_hydrate', bindingKey: 'default', resolvedBy: 'company', truncated: true });
      expect(hydration.bundle.snippets).toHaveLength(3);
      const lines = hydration.preamble.split('\n');
      expect(lines[0]).toBe(preambleHeader);
      expect(lines).toHaveLength(4);
      expect(lines.slice(1).every((line) => line.startsWith('- ') && line.length <= 80 + '- '.length + ' (issue, issue ACME-1)'.length)).toBe(true);
      expect(hydration.preamble).toContain('Deploy windows are # announced in #ops. (issue, issue ACME-1)');
      expect(hydration.preamble).toContain('…');
      const operation = await service.explorer(as(actors.acmeAdmin)).getOperation(hydration.operationId!);
      expect(operation).toMatchObject({
        operation: 'query',
        hookKind: 'pre_run_hydrate',
        hookId: hydration.hookId,
        heartbeatRunId: 'run-1',
        attributionMode: 'included_in_run',
        details: { intent: 'agent_preamble', topK: 3 },
      });
      expect(hydration.deliveries).toEqual([expect.objectContaining({ receiver: 'binding:default', status: 'succeeded', attempts: 1 })]);
    });

    it('logs the hydration under the run agent and issue, and still recalls from the whole company', async () => {
      await service.runtime(system).upsertRecords({ source: { kind: 'issue', issueId: 'ACME-1' }, records: [{ text: 'Deploys happen on Tuesdays.' }] });
      const hydration = await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'deploys Tuesdays', heartbeatRunId: 'run-2', issueId: 'ACME-2', projectId: 'apollo' });
      // The record belongs to no issue: an issue-narrowed recall would not find it.
      expect(hydration.preamble).toContain('Deploys happen on Tuesdays.');
      const listed = await service.explorer(as(actors.acmeAdmin)).listOperations({ issueId: 'ACME-2' });
      expect(listed.items.map((entry) => [entry.id, entry.hookKind, entry.scope])).toEqual([
        [hydration.operationId, 'pre_run_hydrate', { companyId: 'acme', agentId: 'planner', projectId: 'apollo', issueId: 'ACME-2' }],
      ]);
      expect((await service.explorer(as(actors.acmeAdmin)).listOperations({ agentId: 'planner' })).items.map((entry) => entry.id)).toEqual([hydration.operationId]);
    });

    it('keeps the whole preamble under maxCharacters', async () => {
      await service.runtime(system).upsertRecords({ records: [{ text: 'Alpha deploy note one.' }, { text: 'Alpha deploy note two.' }] });
      const hydration = await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'alpha deploy', limits: { maxCharacters: 70 } });
      expect(hydration.preamble.length).toBeLessThanOrEqual(70);
      expect(hydration.bundle.snippets).toHaveLength(1);
      expect(hydration.truncated).toBe(true);
    });

    it('uses the agent override, and gives an empty preamble rather than an error when recall fails', async () => {
      const overridden = await service.hooks.preRunHydrate(system, { agentId: 'builder', query: 'anything' });
      expect(overridden).toMatchObject({ bindingKey: 'builder-own', resolvedBy: 'agent', preamble: '' });
      const globex = await service.hooks.preRunHydrate(as(actors.heartbeat, { companyId: 'globex' }), { agentId: 'scout', query: 'anything' });
      expect(globex).toMatchObject({ preamble: '', bundle: { snippets: [] } });
      expect(globex.deliveries).toEqual([
        expect.objectContaining({ receiver: 'binding:(none)', status: 'failed', error: expect.stringContaining('no enabled binding for agent "scout"') }),
      ]);
    });

    it('drops what a leaking provider returns from another company', async () => {
      const leaky = createLeakyProvider();
      await service.providers.register(as(actors.acmeOperator, { companyId: 'acme' }), leaky.factory);
      await bindCompanyDefault(service, actors.globexAdmin, 'default', 'leaky');
      await service.control(as(actors.acmeAdmin)).updateBinding('default', { providerId: 'leaky' });
      await service.runtime(as(actors.globexAdmin)).upsertRecords({ records: [{ text: 'Globex launch code 0000.' }] });
      const hydration = await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'launch code' });
      expect(hydration.preamble).toBe('');
      expect(hydration.bundle.warnings).toEqual([expect.objectContaining({ type: 'scope_violation' })]);
    });
  });

  describe('capture hooks', () => {
    it('deliver to the binding only where it opted in; manual capture is always on', async () => {
      const comment = await service.hooks.issueCommentCapture(system, { issueId: 'ACME-1', commentId: 'c-1', body: 'We never deploy on Fridays.' });
      expect(comment).toMatchObject({ bindingKey: 'default', deliveries: [expect.objectContaining({ status: 'succeeded' })] });
      expect(comment.capture?.jobs?.[0]).toMatchObject({ status: 'queued', hookKind: 'issue_comment_capture' });
      const plannerRun = await service.hooks.postRunCapture(system, { agentId: 'planner', heartbeatRunId: 'run-1', output: { text: 'Planned the deploy.' } });
      expect(plannerRun.deliveries).toEqual([
        expect.objectContaining({ receiver: 'binding:default', status: 'skipped', attempts: 0, error: 'binding "default" has postRunCapture off' }),
      ]);
      expect(plannerRun.operationId).toBeUndefined();
      const builderRun = await service.hooks.postRunCapture(system, {
        agentId: 'builder',
        heartbeatRunId: 'run-2',
        issueId: 'ACME-1',
        output: { text: 'Built the billing service.' },
      });
      expect(builderRun).toMatchObject({ bindingKey: 'builder-own', deliveries: [expect.objectContaining({ status: 'succeeded' })] });
      const manual = await service.hooks.manualCapture(system, { text: 'The office closes at six.' });
      expect(manual.capture?.records).toHaveLength(1);
      const operation = await service.explorer(as(actors.acmeAdmin)).getOperation(builderRun.operationId!);
      expect(operation).toMatchObject({
        operation: 'capture',
        hookKind: 'post_run_capture',
        heartbeatRunId: 'run-2',
        scope: { companyId: 'acme', agentId: 'builder', runId: 'run-2', issueId: 'ACME-1' },
        source: { kind: 'run', companyId: 'acme', runId: 'run-2', issueId: 'ACME-1' },
      });
    });

    it('validate their input and refuse to emit across companies', async () => {
      await expect(service.hooks.issueCommentCapture(system, { issueId: 'ACME-1', commentId: 'c-1', body: ' ' })).rejects.toMatchObject({ field: 'input.body' });
      await expect(service.hooks.manualCapture(as(actors.acmeAdmin, { companyId: 'globex' }), { text: 'x' })).rejects.toMatchObject({
        code: 'MEMORY_SCOPE_VIOLATION',
      });
    });
  });

  describe('subscribers', () => {
    it('get the delivery, and a failing or hanging one is isolated, retried or timed out, and recorded', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const received: MemoryHookDelivery[] = [];
      let failures = 0;
      let abortedWith: unknown;
      service.hooks.subscribe('issue_comment_capture', { name: 'indexer', deliver: (delivery) => void received.push(delivery) });
      service.hooks.subscribe(['issue_comment_capture', 'manual_capture'], {
        name: 'flaky',
        deliver: () => {
          failures += 1;
          throw new TypeError('flaky subscriber');
        },
      });
      service.hooks.subscribe('issue_comment_capture', {
        name: 'hanging',
        timeoutMs: 250,
        deliver: (_delivery, signal) =>
          new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => {
              abortedWith = signal.reason;
              resolve();
            });
          }),
      });
      const firing = service.hooks.issueCommentCapture(system, { issueId: 'ACME-1', commentId: 'c-9', body: 'Staging is rebuilt nightly.', projectId: 'billing' });
      await vi.advanceTimersByTimeAsync(250);
      const report = await firing;
      expect(report.deliveries.map((delivery) => [delivery.receiver, delivery.status, delivery.attempts])).toEqual([
        ['binding:default', 'succeeded', 1],
        ['indexer', 'succeeded', 1],
        ['flaky', 'failed', 2],
        ['hanging', 'timed_out', 1],
      ]);
      expect(report.deliveries[2]?.error).toBe('flaky subscriber');
      expect(failures).toBe(2);
      expect(abortedWith).toMatchObject({ code: 'MEMORY_TIMEOUT' });
      expect(received).toEqual([
        {
          hook: expect.objectContaining({ hookKind: 'issue_comment_capture', hookId: report.hookId }),
          companyId: 'acme',
          bindingKey: 'default',
          providerId: 'memory',
          scope: { companyId: 'acme', projectId: 'billing', issueId: 'ACME-1' },
          source: { kind: 'issue_comment', companyId: 'acme', issueId: 'ACME-1', commentId: 'c-9' },
          payload: { text: 'Staging is rebuilt nightly.', mimeType: 'text/markdown' },
        },
      ]);
      expect(service.metrics().failedHookDeliveries).toBe(2);
      const recorded = await service.explorer(as(actors.acmeAdmin)).listHookDeliveries({ hookId: report.hookId });
      expect(recorded.items.map((delivery) => delivery.receiver).sort()).toEqual(['binding:default', 'flaky', 'hanging', 'indexer']);
      expect((await service.explorer(as(actors.acmeAdmin)).listHookDeliveries({ status: 'timed_out' })).items).toHaveLength(1);
    });

    it('can unsubscribe, and are refused when malformed', async () => {
      const received: string[] = [];
      const unsubscribe = service.hooks.subscribe('manual_capture', { name: 'listener', deliver: (delivery) => void received.push(delivery.hook.hookId) });
      await service.hooks.manualCapture(system, { text: 'one' });
      unsubscribe();
      await service.hooks.manualCapture(system, { text: 'two' });
      expect(received).toHaveLength(1);
      expect(() => service.hooks.subscribe('nope' as never, { name: 'x', deliver: () => undefined })).toThrow(expect.objectContaining({ field: 'hookKinds' }) as Error);
      expect(() => service.hooks.subscribe('manual_capture', { name: '', deliver: () => undefined })).toThrow(expect.objectContaining({ field: 'subscriber.name' }) as Error);
    });
  });
});
