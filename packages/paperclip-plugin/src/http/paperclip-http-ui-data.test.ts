import { afterEach, describe, expect, it } from 'vitest';
import { memoryUiDataKeys, type UiIssueMemoryData, type UiSettingsData } from '../memory-ui-contract';
import { registerMemoryUiData } from '../worker/memory-ui-data';
import { inspectorBaseOf } from '../worker/plugin-service-location';
import { comment, company, issue } from '../worker/test-support/paperclip-fixtures';
import { startWorker, type StartedWorker } from '../worker/test-support/worker-harness';

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

/** Registers the UI data handlers the way the worker entry does. */
function registerUi(started: StartedWorker) {
  registerMemoryUiData(started.harness.ctx, {
    service: async () => {
      const service = started.plugin.service();
      if (service === undefined) throw new TypeError('no service');
      return service;
    },
    inspectorBase: async (companyId) => inspectorBaseOf(await started.plugin.companyConfig(companyId)),
  });
}

describe('the settings page and the issue tab over memplane serve', () => {
  it('read bindings, operations and records from the server, and link the issue operations to its inspector', async () => {
    worker = await startWorker({ acme: { bindings: [{ key: 'default', providerId: 'markdown', hooks: { issueCommentCapture: true } }], default: 'default' } }, {}, undefined, 'http');
    const { harness } = worker;
    registerUi(worker);
    harness.seed({
      companies: [company('acme')],
      issues: [issue('acme', 'iss-1', 'Rollout', 'Plan it')],
      issueComments: [comment('acme', 'iss-1', 'cmt-1', 'Rollouts pause on Fridays.', { agentId: 'planner', runId: 'run-1' })],
    });
    await harness.emit('issue.comment.created', { commentId: 'cmt-1', companyId: 'acme' }, { companyId: 'acme', entityId: 'iss-1' });
    await worker.service.flush();

    const tab = await harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'acme', issueId: 'iss-1' });
    expect(tab.records.map((record) => record.text)).toEqual(['Rollouts pause on Fridays.']);
    expect(tab.operations.map((operation) => [operation.operation, operation.hookKind])).toContainEqual(['capture', 'issue_comment_capture']);
    expect(tab.inspectorUrl).toBe(`${worker.server?.http.url}/#/acme/operations?issueId=iss-1`);

    const settings = await harness.getData<UiSettingsData>(memoryUiDataKeys.settings, { companyId: 'acme' });
    expect(settings.bindings.map((binding) => [binding.key, binding.hooks.issueCommentCapture])).toEqual([['default', true]]);
    expect(settings.targets).toEqual([{ targetType: 'company', bindingKey: 'default' }]);
    expect(settings.counts.find((count) => count.bindingKey === 'default')?.total).toBeGreaterThan(0);
  });

  it('in worker mode the tab has no inspector link unless one is configured', async () => {
    worker = await startWorker({});
    registerUi(worker);
    worker.harness.seed({ companies: [company('acme')] });
    const tab = await worker.harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'acme', issueId: 'iss-1' });
    expect(tab).not.toHaveProperty('inspectorUrl');
    await worker.stop();
    worker = await startWorker({ acme: { inspectorUrl: 'https://inspect.example.com/memplane/' } });
    registerUi(worker);
    const linked = await worker.harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'acme', issueId: 'iss 1' });
    expect(linked.inspectorUrl).toBe('https://inspect.example.com/memplane/#/acme/operations?issueId=iss+1');
    // The link is each company's own: globex configured none.
    const unlinked = await worker.harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'globex', issueId: 'iss 1' });
    expect(unlinked).not.toHaveProperty('inspectorUrl');
  });
});
