import type { MemoryService } from '@memplane/service';
import { generateText, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acmeAdmin, createEmbeddedService } from '../test-support/embedded-service';
import { scriptedModel, toolCall } from '../test-support/mock-models';
import { memplaneTools, type MemplaneToolOutput } from './memplane-tools';

const planner = { companyId: 'acme', agentId: 'planner', runId: 'run-5', issueId: 'ACME-3' };

describe('memplaneTools', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;

  beforeEach(async () => {
    ({ service, cleanUp } = await createEmbeddedService());
    // Another company with its own memory: nothing of it may ever reach acme's agent.
    const globex = service.control({ actor: { kind: 'company', companyId: 'globex' } });
    await globex.createBinding({ key: 'default', providerId: 'markdown' });
    await globex.setTarget({ targetType: 'company' }, 'default');
    await service.runtime({ actor: { kind: 'agent', companyId: 'globex', agentId: 'scout' } }).upsertRecords({ records: [{ text: 'Globex secret: the merger closes in March.' }] });
  });
  afterEach(async () => cleanUp());

  /** Runs one tool-loop turn in which the model makes `calls`, and returns each tool output. */
  async function modelCalls(tools: ReturnType<typeof memplaneTools>, calls: ReturnType<typeof toolCall>[], experimentalContext?: unknown) {
    const result = await generateText({
      model: scriptedModel([calls, 'Done.']),
      tools,
      stopWhen: stepCountIs(2),
      prompt: 'Go.',
      ...(experimentalContext === undefined ? {} : { experimental_context: experimentalContext }),
    });
    const [first] = result.steps;
    return {
      outputs: (first?.toolResults ?? []).map((entry) => entry.output as MemplaneToolOutput),
      errors: (first?.content ?? []).filter((part) => part.type === 'tool-error'),
      modelSaw: JSON.stringify(result.response.messages),
    };
  }

  it('are the six tools of the MCP server, with strict schemas and dot-free names', () => {
    const tools = memplaneTools(service, { agent: planner });
    expect(Object.keys(tools)).toEqual(['memory_search', 'memory_note', 'memory_forget', 'memory_correct', 'memory_list', 'memory_get']);
    for (const entry of Object.values(tools)) {
      expect((entry.inputSchema as { jsonSchema: { additionalProperties?: unknown } }).jsonSchema.additionalProperties).toBe(false);
    }
    // The model knows the tools by their wire names only: no description or schema points to a dotted one.
    const all = memplaneTools(service, { agent: planner, capabilities: { profile: true, listExtractionJobs: true } });
    for (const entry of Object.values(all)) expect(JSON.stringify([entry.description, entry.inputSchema])).not.toMatch(/memory\.[a-z]/);
    expect(all.memory_profile?.description).toContain('memory_search');
    expect(tools.memory_forget?.metadata).toEqual({ memplane: { readOnly: false, destructive: true } });
    expect(tools.memory_search?.metadata).toEqual({ memplane: { readOnly: true, destructive: false } });
    expect(Object.keys(memplaneTools(service, { agent: planner, capabilities: { profile: true, listExtractionJobs: true } }))).toEqual(
      expect.arrayContaining(['memory_profile', 'memory_jobs']),
    );
    expect(Object.keys(memplaneTools(service, { agent: planner, only: ['memory_search', 'memory_get'] }))).toEqual(['memory_search', 'memory_get']);
  });

  it('note, search, correct, get, list and forget as the agent, each a logged operation', async () => {
    const tools = memplaneTools(service, { agent: planner });
    const noted = await modelCalls(tools, [toolCall('memory_note', { text: 'The billing service deploys on Tuesdays.', kind: 'decision' })]);
    expect(noted.outputs[0]).toMatchObject({ ok: true, content: expect.stringMatching(/^Noted as markdown:/) });
    const recordId = (noted.outputs[0] as { data: { recordIds: string[] } }).data.recordIds[0]!;

    const found = await modelCalls(tools, [toolCall('memory_search', { query: 'billing deploys' })]);
    expect(found.outputs[0]?.content).toContain('The billing service deploys on Tuesdays.');
    expect(found.modelSaw).not.toContain('Globex');

    const corrected = await modelCalls(tools, [toolCall('memory_correct', { recordId, text: 'The billing service deploys on Wednesdays.' })]);
    expect(corrected.outputs[0]).toMatchObject({ ok: true });
    // markdown keeps the history: the correction is the record the tool names now.
    const current = (corrected.outputs[0] as { data: { recordId: string } }).data.recordId;
    expect((await modelCalls(tools, [toolCall('memory_get', { recordId: current })])).outputs[0]?.content).toContain('Wednesdays');
    expect((await modelCalls(tools, [toolCall('memory_list', {})])).outputs[0]?.content).toContain('Wednesdays');
    expect((await modelCalls(tools, [toolCall('memory_forget', { recordIds: [current] })])).outputs[0]).toMatchObject({ ok: true });
    expect((await modelCalls(tools, [toolCall('memory_get', { recordId: current })])).outputs[0]?.content).toBe('Not found.');

    await service.flush();
    const log = await service.explorer(acmeAdmin).listOperations({ runId: 'run-5' });
    expect(log.items.map((entry) => entry.operation).reverse()).toEqual(['record_upsert', 'query', 'correct', 'get', 'list', 'forget', 'get']);
    expect(log.items.every((entry) => entry.actor.kind === 'agent' && entry.actor.id === 'planner')).toBe(true);
    expect(log.items.every((entry) => (entry.details as { client?: { name: string } } | undefined)?.client?.name === '@memplane/ai-sdk')).toBe(true);
  });

  it('forget tells the model how many records it really forgot: none of another agent\'s or another company\'s', async () => {
    const builders = (await service.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'builder' } }).upsertRecords({ records: [{ text: 'The builder pins the toolchain.' }] })).records![0]!;
    const globex = (await service.runtime({ actor: { kind: 'company', companyId: 'globex' } }).list()).items[0]!.handle;
    const tools = memplaneTools(service, { agent: planner });
    const noted = await modelCalls(tools, [toolCall('memory_note', { text: 'The planner moves standup to ten.' })]);
    const own = (noted.outputs[0] as { data: { recordIds: string[] } }).data.recordIds[0]!;
    const ids = [own, `${builders.providerKey}:${builders.providerRecordId}`, `${globex.providerKey}:${globex.providerRecordId}`, 'markdown:never-written'];
    const forgot = await modelCalls(tools, [toolCall('memory_forget', { recordIds: ids })]);
    expect(forgot.outputs[0]).toMatchObject({ ok: true, content: 'Forgot 1 record(s). Skipped 3: 2 not found, 1 not yours to forget.', data: { forgotten: 1 } });
    const warnings = (forgot.outputs[0] as { data: { warnings: Array<{ type: string; providerRecordId: string }> } }).data.warnings;
    expect(warnings.map((warning) => [warning.type, warning.providerRecordId])).toEqual([
      ['not_found', globex.providerRecordId],
      ['not_found', 'never-written'],
      ['scope_violation', builders.providerRecordId],
    ]);
    expect(forgot.modelSaw).toContain('Forgot 1 record(s).');
    expect((await service.runtime({ actor: { kind: 'company', companyId: 'acme' } }).get({ handle: builders })).snippet?.text).toBe('The builder pins the toolchain.');
  });

  it('refuse a model that passes another company or agent, write nothing, and log each refusal', async () => {
    const tools = memplaneTools(service, { agent: planner });
    const attack = await modelCalls(tools, [
      toolCall('memory_search', { query: 'merger', companyId: 'globex' }, 'c1'),
      toolCall('memory_note', { text: 'Planted into globex.', companyId: 'globex', agentId: 'scout' }, 'c2'),
      toolCall('memory_list', { scope: { companyId: 'globex' } }, 'c3'),
    ]);
    expect(attack.outputs).toHaveLength(3);
    for (const output of attack.outputs) expect(output).toMatchObject({ ok: false, error: { code: 'MEMORY_VALIDATION' } });
    expect(attack.outputs[0]?.content).toContain('companyId');
    expect(attack.modelSaw).not.toContain('merger closes');

    await service.flush();
    // Each refusal is a failed operation of its tool in the agent's company, naming the fields and never their values.
    const log = (await service.explorer(acmeAdmin).listOperations({})).items.reverse();
    expect(log.map((entry) => [entry.operation, entry.status, entry.errorCode, entry.details?.refusedFields])).toEqual([
      ['query', 'failed', 'MEMORY_VALIDATION', ['companyId']],
      ['record_upsert', 'failed', 'MEMORY_VALIDATION', ['companyId', 'agentId']],
      ['list', 'failed', 'MEMORY_VALIDATION', ['scope']],
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({ actor: { kind: 'agent', id: 'planner' }, heartbeatRunId: 'run-5', details: { client: { name: '@memplane/ai-sdk' } } });
      expect(entry.bindingId).toBeUndefined();
    }
    expect(JSON.stringify(log)).not.toMatch(/globex|scout|Planted|merger/);
    // Globex's log holds only its own agent's write from before the attack.
    const globexLog = await service.explorer({ actor: { kind: 'company', companyId: 'globex' } }).listOperations({});
    expect(globexLog.items.map((entry) => [entry.operation, entry.actor.id])).toEqual([['record_upsert', 'scout']]);
    const globex = await service.runtime({ actor: { kind: 'company', companyId: 'globex' } }).list({ limit: 50 });
    expect(globex.items.map((item) => item.text)).toEqual(['Globex secret: the merger closes in March.']);
  });

  it('take the agent from the call context, checked on every call', async () => {
    const tools = memplaneTools(service, { agent: (context) => (context as { agent: unknown }).agent as typeof planner });
    const noted = await modelCalls(tools, [toolCall('memory_note', { text: 'Standups are at nine.' })], { agent: planner });
    expect(noted.outputs[0]).toMatchObject({ ok: true });
    // A host bug that hands over a malformed agent fails the call; it never runs as someone else.
    const broken = await modelCalls(tools, [toolCall('memory_search', { query: 'standups' })], { agent: { companyId: 'acme' } });
    expect(broken.outputs).toEqual([]);
    expect(broken.errors).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: 'MEMORY_VALIDATION' }) })]);
    // An agent with a field the contract does not know (a host mixing up its objects) is refused too.
    const confused = await modelCalls(tools, [toolCall('memory_search', { query: 'standups' })], { agent: { ...planner, scope: { companyId: 'globex' } } });
    expect(confused.errors).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('agent') }) })]);
  });

  it('refuse bad settings with a typed error naming the field', () => {
    expect(() => memplaneTools(service, { agent: { companyId: 'acme' } as never })).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('agent.agentId') }));
    expect(() => memplaneTools(service, null as never)).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION' }));
  });
});

describe('memplaneTools on a binding with a profile and extraction jobs', () => {
  it('offer memory_profile and memory_jobs from the binding capabilities, as the agent', async () => {
    const { service, cleanUp } = await createEmbeddedService({}, { providerId: 'memory' });
    try {
      const resolved = await service.control(acmeAdmin).resolve('planner');
      const tools = memplaneTools(service, { agent: planner, capabilities: resolved.binding.capabilities });
      expect(Object.keys(tools)).toEqual(expect.arrayContaining(['memory_profile', 'memory_jobs']));
      await service.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' } }).upsertRecords({ records: [{ text: 'Ada prefers short status updates.' }] });
      const result = await generateText({
        model: scriptedModel([[toolCall('memory_profile', {}, 'p1'), toolCall('memory_jobs', {}, 'j1'), toolCall('memory_profile', { companyId: 'globex' }, 'p2')], 'Done.']),
        tools,
        stopWhen: stepCountIs(2),
        prompt: 'Who am I working with?',
      });
      const outputs = (result.steps[0]?.toolResults ?? []).map((entry) => entry.output as MemplaneToolOutput);
      expect(outputs[0]).toMatchObject({ ok: true, content: expect.stringContaining('Ada prefers short status updates.') });
      expect(outputs[1]).toMatchObject({ ok: true, data: { jobs: [] } });
      expect(outputs[2]).toMatchObject({ ok: false, error: { code: 'MEMORY_VALIDATION' } });
    } finally {
      await cleanUp();
    }
  });
});
