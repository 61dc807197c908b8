import { randomBytes } from 'node:crypto';
import { BedrockAgentCoreClient, ListMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import type { MemoryAdapter, MemoryRecordHandle, MemoryScope } from '@memplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentCoreAdapter } from './agentcore-adapter';
import { setupAgentCoreMemory } from './agentcore-memory-setup';

/**
 * The live tier: runs against a real AgentCore memory when its credentials are set, and is
 * skipped, naming what is missing, otherwise. It never runs in the offline suite by accident:
 * without the variables below it makes no call at all.
 */
const memoryId = process.env.AGENTCORE_MEMORY_ID;
const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
const hasCredentials = ['AWS_ACCESS_KEY_ID', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'].some(
  (name) => (process.env[name] ?? '') !== '',
);
const missing = [
  ...(memoryId === undefined ? ['AGENTCORE_MEMORY_ID'] : []),
  ...(region === undefined ? ['AWS_REGION'] : []),
  ...(hasCredentials ? [] : ['AWS credentials (AWS_ACCESS_KEY_ID, AWS_PROFILE or a web identity)']),
];
// AgentCore indexes writes asynchronously, so reads of fresh records are polled, never slept on.
const eventually = { timeout: 60_000, interval: 2_000 };

describe('AgentCore live tier', () => {
  if (missing.length > 0 || memoryId === undefined) {
    it('runs against a real AgentCore memory', (context) => {
      context.skip(`live tier skipped: set ${missing.join(', ')}`);
    });
    return;
  }

  const run = `memplane-live-${randomBytes(4).toString('hex')}`;
  const adapter: MemoryAdapter = createAgentCoreAdapter({ memoryId, silenceNodeVersionWarning: true });
  const written: Array<{ handle: MemoryRecordHandle; scope: MemoryScope }> = [];

  async function write(scope: MemoryScope, text: string): Promise<MemoryRecordHandle> {
    const result = await adapter.upsertRecords({
      bindingKey: 'live',
      scope,
      source: { kind: 'manual_note', companyId: scope.companyId },
      records: [{ text, metadata: { run } }],
    });
    expect(result.failures).toBeUndefined();
    const handle = result.records?.[0] as MemoryRecordHandle;
    written.push({ handle, scope });
    return handle;
  }

  afterAll(async () => {
    for (const { handle, scope } of written) await adapter.forget([handle], scope);
  });

  it('runs on a memory that declares the indexed keys the adapter filters on', async () => {
    // A dry run only reads: the live tier never declares keys on your memory, which cannot be undone.
    const plan = await setupAgentCoreMemory({ memoryId, ...(region === undefined ? {} : { region }), dryRun: true });
    expect(plan.added, `run: memplane agentcore setup --memory-id ${memoryId}`).toEqual([]);
  });

  it('filters a scope that names every field within 5 metadata filters, and a caller metadataFilter after retrieval', { timeout: 120_000 }, async () => {
    const scope = { companyId: `${run}-f`, agentId: 'planner', projectId: 'p', issueId: 'i', runId: 'r', subjectId: 's', sessionKey: 'k', namespace: 'n' };
    await write(scope, `Filtered record of ${run}: the on-call rota changes on Mondays.`);
    await write({ ...scope, runId: 'other' }, `Other run of ${run}: the on-call rota changes on Mondays.`);
    await write({ ...scope, sessionKey: 'other' }, `Other session of ${run}: the on-call rota changes on Mondays.`);
    const texts = async () => (await adapter.list({ bindingKey: 'live', scope })).items.map((item) => item.text);
    await expect.poll(texts, eventually).toEqual([`Filtered record of ${run}: the on-call rota changes on Mondays.`]);
    const queried = async () => (await adapter.query({ bindingKey: 'live', scope, query: 'on-call rota' })).snippets.map((snippet) => snippet.text);
    await expect.poll(queried, eventually).toEqual([`Filtered record of ${run}: the on-call rota changes on Mondays.`]);
    const byProject = async () => (await adapter.list({ bindingKey: 'live', scope: { companyId: scope.companyId, projectId: 'p' }, metadataFilter: { run } })).items.length;
    await expect.poll(byProject, eventually).toBe(3);
  });

  it('returns topK above the 20 AgentCore returns per call by default', { timeout: 180_000 }, async () => {
    const scope = { companyId: `${run}-k` };
    const result = await adapter.upsertRecords({
      bindingKey: 'live',
      scope,
      records: Array.from({ length: 30 }, (_, index) => ({ text: `Deploy note ${index} of ${run}: deploys need a green build.`, metadata: { run } })),
    });
    expect(result.failures).toBeUndefined();
    for (const handle of result.records ?? []) written.push({ handle, scope });
    await expect.poll(async () => (await adapter.query({ bindingKey: 'live', scope, query: 'deploy note green build', topK: 25 })).snippets.length, eventually).toBe(25);
  });

  it('captures through CreateEvent, reads the event back and forgets it', { timeout: 120_000 }, async () => {
    const scope = { companyId: `${run}-c`, agentId: 'planner', sessionKey: 'thread-1' };
    const captured = await adapter.capture({
      bindingKey: 'live',
      scope,
      source: { kind: 'run', companyId: scope.companyId, runId: 'run-1' },
      payload: { text: `Captured in ${run}: the team prefers small pull requests.` },
      metadata: { run },
    });
    const handle = captured.records?.[0] as MemoryRecordHandle;
    expect(handle.providerRecordId).toMatch(/^event:/);
    const event = await adapter.get(handle, scope);
    expect(event).toMatchObject({ text: `Captured in ${run}: the team prefers small pull requests.`, metadata: { run } });
    expect(await adapter.get(handle, { companyId: `${run}-other` })).toBeNull();
    await adapter.forget([handle], scope);
    await expect.poll(async () => adapter.get(handle, scope), eventually).toBeNull();
  });

  it('writes, reads, corrects and forgets a record with its provenance', { timeout: 120_000 }, async () => {
    const scope = { companyId: `${run}-a`, agentId: 'planner', projectId: 'live' };
    const handle = await write(scope, `Live record of ${run}: deploys happen on Tuesdays.`);
    await expect.poll(async () => (await adapter.get(handle, scope))?.metadata, eventually).toEqual({ run });
    await adapter.correct(handle, { text: `Live record of ${run}: deploys happen on Wednesdays.` }, scope);
    await expect.poll(async () => (await adapter.get(handle, scope))?.text, eventually).toContain('Wednesdays');
    expect(await adapter.get(handle, { companyId: `${run}-b` })).toBeNull();
    await adapter.forget([handle], scope);
    await expect.poll(async () => adapter.get(handle, scope), eventually).toBeNull();
  });

  it('lists and queries only the scope, across the namespace prefix trap', { timeout: 120_000 }, async () => {
    await write({ companyId: `${run}1` }, `Company one of ${run} ships the release checklist.`);
    await write({ companyId: `${run}10` }, `Company ten of ${run} ships the release checklist.`);
    // Without the trailing slash AgentCore's prefix match reaches company 10: the trap the adapter avoids.
    const direct = new BedrockAgentCoreClient({ region });
    await expect
      .poll(async () => (await direct.send(new ListMemoryRecordsCommand({ memoryId, namespace: `/c/${run}1` }))).memoryRecordSummaries?.length, eventually)
      .toBe(2);
    await expect.poll(async () => (await adapter.list({ bindingKey: 'live', scope: { companyId: `${run}1` } })).items.map((item) => item.text), eventually).toEqual([
      `Company one of ${run} ships the release checklist.`,
    ]);
    const bundle = await adapter.query({ bindingKey: 'live', scope: { companyId: `${run}1` }, query: 'release checklist' });
    expect(bundle.snippets.every((snippet) => snippet.scope?.companyId === `${run}1`)).toBe(true);
    expect(bundle.warnings?.filter((warning) => warning.type === 'scope_violation')).toEqual([]);
  });
});
