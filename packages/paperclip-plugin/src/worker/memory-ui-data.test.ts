import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { createMemoryService, type MemoryService } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { createTestHarness, type TestHarness } from '@paperclipai/plugin-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import manifest from '../manifest';
import { memoryUiDataKeys, type UiIssueMemoryData, type UiSettingsData } from '../memory-ui-contract';
import { registerMemoryUiData } from './memory-ui-data';
import { inWorkerMemoryService } from './plugin-memory-service';

let folder: string;
let service: MemoryService;
let harness: TestHarness;

async function bindMarkdown(companyId: string, hooks = {}) {
  const control = service.control({ actor: { kind: 'system', component: 'test' }, companyId });
  await control.createBinding({ key: 'default', providerId: 'markdown', hooks });
  await control.setTarget({ targetType: 'company' }, 'default');
}

async function noteOnIssue(companyId: string, issueId: string, text: string, commentId: string) {
  await service.runtime({ actor: { kind: 'agent', companyId, agentId: 'planner' } }).upsertRecords({
    scope: { agentId: 'planner', issueId },
    source: { kind: 'issue_comment', issueId, commentId, runId: 'run-1' },
    records: [{ text }],
  });
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-paperclip-ui-'));
  service = await createMemoryService({ store: createSqliteMemoryServiceStore({ filename: join(folder, 'memplane.db') }), dataDirectory: folder, providers: [markdownProvider] });
  harness = createTestHarness({ manifest });
  registerMemoryUiData(harness.ctx, { service: async () => inWorkerMemoryService(service) });
});

afterEach(async () => {
  await service.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the UI data handlers', () => {
  it('the issue tab shows that issue operations and records with their sources', async () => {
    await bindMarkdown('acme');
    await noteOnIssue('acme', 'iss-1', 'We deploy on Tuesdays.', 'cmt-1');
    await noteOnIssue('acme', 'iss-2', 'Another issue entirely.', 'cmt-9');
    const data = await harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'acme', issueId: 'iss-1' });
    expect(data.unbound).toBe(false);
    expect(data.records.map((record) => record.text)).toEqual(['We deploy on Tuesdays.']);
    expect(data.records[0]?.recordId).toMatch(/^[^:]+:.+/);
    expect(data.records[0]?.source).toEqual({ kind: 'issue_comment', issueId: 'iss-1', commentId: 'cmt-1', runId: 'run-1' });
    const writes = data.operations.filter((operation) => operation.operation === 'record_upsert');
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ status: 'succeeded', bindingKey: 'default', providerId: 'markdown', agentId: 'planner' });
  });

  it('one company never sees another company records, operations or bindings through the same worker', async () => {
    await bindMarkdown('acme');
    await bindMarkdown('globex', { issueCommentCapture: true });
    await noteOnIssue('globex', 'shared-issue', 'Globex secret plan.', 'cmt-g');
    const issue = await harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'acme', issueId: 'shared-issue' });
    expect(JSON.stringify(issue)).not.toContain('Globex');
    expect(issue.records).toEqual([]);
    expect(issue.operations).toEqual([]);
    const settings = await harness.getData<UiSettingsData>(memoryUiDataKeys.settings, { companyId: 'acme' });
    expect(settings.bindings.map((binding) => binding.hooks.issueCommentCapture)).toEqual([false]);
    // Only acme's own read of the tab (a list, logged after it answered), never globex's write.
    expect(settings.counts.map(({ bindingKey, total }) => ({ bindingKey, total }))).toEqual([{ bindingKey: 'default', total: 1 }]);
  });

  it('the settings page shows bindings, the company default and agent overrides by key', async () => {
    await bindMarkdown('acme');
    const control = service.control({ actor: { kind: 'system', component: 'test' }, companyId: 'acme' });
    await control.createBinding({ key: 'planner-notes', providerId: 'markdown' });
    await control.setTarget({ targetType: 'agent', agentId: 'planner' }, 'planner-notes');
    const settings = await harness.getData<UiSettingsData>(memoryUiDataKeys.settings, { companyId: 'acme', renderEnvironment: null });
    expect(settings.bindings.map((binding) => binding.key).sort()).toEqual(['default', 'planner-notes']);
    expect(settings.targets).toEqual(
      expect.arrayContaining([
        { targetType: 'company', bindingKey: 'default' },
        { targetType: 'agent', agentId: 'planner', bindingKey: 'planner-notes' },
      ]),
    );
  });

  it('a company with no binding gets its (empty) operations and no records, and writes no binding', async () => {
    const data = await harness.getData<UiIssueMemoryData>(memoryUiDataKeys.issue, { companyId: 'newco', issueId: 'iss-1' });
    expect(data).toEqual({ issueId: 'iss-1', operations: [], records: [], unbound: true });
    expect(await service.control({ actor: { kind: 'system', component: 'test' }, companyId: 'newco' }).listBindings()).toEqual([]);
  });

  it('refuses a request without a company or an issue, naming the field', async () => {
    await expect(harness.getData(memoryUiDataKeys.settings, {})).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    await expect(harness.getData(memoryUiDataKeys.issue, { companyId: 'acme' })).rejects.toThrow(/issueId/);
    await expect(harness.getData(memoryUiDataKeys.issue, { companyId: 'acme', issueId: 'a\u0000b' })).rejects.toThrow(/issueId/);
  });
});
