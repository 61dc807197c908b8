import type { MemoryService } from '@memplane/service';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEmbeddedService } from '../test-support/embedded-service';
import { eventLog, scriptedModel, streamingModel, streamingToolModel, systemTexts, toolCall } from '../test-support/mock-models';
import { memplaneMiddleware } from './memplane-middleware';
import { hydrationBlockOpen } from './prompt-parts';

const agent = { companyId: 'acme', agentId: 'planner', runId: 'run-1', issueId: 'ACME-7' };
const planner = { actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' } } as const;

describe('memplaneMiddleware on the embedded default (SQLite + markdown)', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;

  beforeEach(async () => {
    ({ service, cleanUp } = await createEmbeddedService());
  });
  afterEach(async () => cleanUp());

  it('carries what turn one captured into the prompt of turn two, once, as a marked block', async () => {
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, onEvent: log.onEvent });
    const mock = scriptedModel(['Understood: deploys happen on Tuesdays after the standup.', 'They happen on Tuesdays.']);
    const model = wrapLanguageModel({ model: mock, middleware: memory });

    const first = { role: 'user' as const, content: 'We decided that deploys happen on Tuesdays after the standup.' };
    const one = await generateText({ model, system: 'You are the planner.', messages: [first] });
    await memory.flush();
    expect(systemTexts(mock.doGenerateCalls[0])).toEqual(['You are the planner.']);

    const question = { role: 'user' as const, content: 'When do deploys happen?' };
    await generateText({ model, system: 'You are the planner.', messages: [first, { role: 'assistant', content: one.text }, question] });
    await memory.flush();
    const secondPrompt = systemTexts(mock.doGenerateCalls[1]);
    // The app's own system prompt stays first; the block follows it, exactly once.
    expect(secondPrompt[0]).toBe('You are the planner.');
    expect(secondPrompt.filter((text) => text.startsWith(hydrationBlockOpen))).toHaveLength(1);
    expect(secondPrompt[1]).toContain('Tuesdays');
    expect(log.types()).toEqual(['hydrated', 'captured', 'hydrated', 'captured']);

    // The captured turn carries its provenance: a run source, the run id, the issue and the model.
    const records = await service.runtime(planner).list({ limit: 50 });
    const captured = records.items.find((item) => item.text.includes('Tuesdays'));
    expect(captured?.source).toMatchObject({ kind: 'run', runId: 'run-1', issueId: 'ACME-7', companyId: 'acme' });
    expect(captured?.metadata).toMatchObject({ capturedBy: '@memplane/ai-sdk', modelId: 'mock-model', modelProvider: 'mock-provider' });
    // The recalled block is never captured again.
    expect(records.items.some((item) => item.text.includes('<memplane-memory'))).toBe(false);
  });

  it("captures the user's turn without the assistant's reply, so the reply never comes back in the next turn's block", async () => {
    const payloads: unknown[] = [];
    service.hooks.subscribe('post_run_capture', { name: 'probe', deliver: (delivery) => void payloads.push(delivery.payload) });
    const memory = memplaneMiddleware(service, { agent });
    const reply = 'Nice to meet you, Jerry! How can I help you today? I can draft a plan for the billing migration.';
    const mock = scriptedModel([reply, 'Sure.']);
    const model = wrapLanguageModel({ model: mock, middleware: memory });

    const introduction = { role: 'user' as const, content: 'Hi, I am Jerry, I lead the billing team.' };
    await generateText({ model, messages: [introduction] });
    await memory.flush();
    expect(payloads).toEqual([{ text: 'User: Hi, I am Jerry, I lead the billing team.', mimeType: 'text/plain' }]);

    await generateText({ model, messages: [introduction, { role: 'assistant', content: reply }, { role: 'user', content: 'Can you help me plan the billing migration?' }] });
    await memory.flush();
    const block = systemTexts(mock.doGenerateCalls[1]).find((text) => text.startsWith(hydrationBlockOpen)) ?? '';
    expect(block).toContain('I lead the billing team');
    for (const said of ['Nice to meet you', 'How can I help', 'draft a plan']) expect(block).not.toContain(said);
    const records = await service.runtime(planner).list({ limit: 50 });
    expect(records.items.map((item) => item.text)).toEqual(['User: Hi, I am Jerry, I lead the billing team.', 'User: Can you help me plan the billing migration?']);
  });

  it('inserts the block once when the same params pass through twice', async () => {
    await service.runtime(planner).upsertRecords({ records: [{ text: 'The billing service deploys on Tuesdays.' }] });
    const memory = memplaneMiddleware(service, { agent, capture: false });
    const params = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'When does billing deploy?' }] }] };
    const model = scriptedModel(['x']);
    const once = await memory.transformParams!({ type: 'generate', params, model });
    const twice = await memory.transformParams!({ type: 'generate', params: once, model });
    expect(twice.prompt.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(twice.prompt).toEqual(once.prompt);
    expect(twice.prompt[0]).toMatchObject({ role: 'system', content: expect.stringContaining('billing service deploys on Tuesdays') });
  });

  it('captures a streamed reply once the stream has been read, when asked to keep the reply', async () => {
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, capture: { assistantTurns: 'keep' }, onEvent: log.onEvent });
    const model = wrapLanguageModel({ model: streamingModel(['We agreed ', 'the launch ', 'is on 2026-12-01.']), middleware: memory });
    const result = streamText({ model, prompt: 'Remind me of the launch date we agreed on.' });
    expect(await result.text).toBe('We agreed the launch is on 2026-12-01.');
    await memory.flush();
    expect(log.types()).toEqual(['hydrated', 'captured']);
    const found = await service.runtime(planner).query({ query: 'launch date' });
    expect(found.snippets.map((snippet) => snippet.text).join(' ')).toContain('2026-12-01');
  });

  it('captures a streamed tool loop once, with the tool call and its result', async () => {
    const log = eventLog();
    // A subscriber sees each capture's payload exactly as the binding gets it.
    const payloads: unknown[] = [];
    service.hooks.subscribe('post_run_capture', { name: 'probe', deliver: (delivery) => void payloads.push(delivery.payload) });
    const memory = memplaneMiddleware(service, { agent, capture: { includeToolCalls: true }, onEvent: log.onEvent });
    const model = wrapLanguageModel({ model: streamingToolModel('lookup_owner', { service: 'billing' }, 'Grace owns billing, per the registry.'), middleware: memory });
    const lookup = tool({ inputSchema: z.object({ service: z.string() }), execute: async () => 'owner: Grace' });
    const result = streamText({ model, tools: { lookup_owner: lookup }, stopWhen: stepCountIs(3), prompt: 'Who owns the billing service?' });
    expect(await result.text).toBe('Grace owns billing, per the registry.');
    await memory.flush();
    expect(log.types()).toEqual(['hydrated', 'hydrated', 'captured']);
    expect(payloads).toEqual([
      {
        text: 'User: Who owns the billing service?\nTool call lookup_owner: {"service":"billing"}\nTool result lookup_owner: owner: Grace',
        mimeType: 'text/plain',
      },
    ]);
  });

  it('recalls once per turn across tool-loop steps and captures the turn once, with its tool calls', async () => {
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, capture: { includeToolCalls: true }, onEvent: log.onEvent });
    const mock = scriptedModel([[toolCall('lookup_calendar', { team: 'billing' })], 'Billing deploys on Tuesdays at 10:00.']);
    const model = wrapLanguageModel({ model: mock, middleware: memory });
    const lookup = tool({ inputSchema: z.object({ team: z.string() }), execute: async () => 'Tuesday 10:00' });
    await generateText({ model, tools: { lookup_calendar: lookup }, stopWhen: stepCountIs(3), prompt: 'When does billing deploy?' });
    await memory.flush();
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(log.events.filter((event) => event.type === 'hydrated').map((event) => (event.type === 'hydrated' ? event.cached : undefined))).toEqual([false, true]);
    expect(log.types().filter((type) => type === 'captured')).toHaveLength(1);
    const operations = await service.explorer({ actor: { kind: 'company', companyId: 'acme' } }).listOperations({ runId: 'run-1' });
    expect(operations.items.filter((entry) => entry.operation === 'capture')).toHaveLength(1);
    // Every operation the hooks ran names the client beside the hook actor.
    expect(operations.items.map((entry) => [entry.actor.kind, (entry.details as { client?: unknown } | undefined)?.client])).toEqual(
      operations.items.map(() => ['system', { name: '@memplane/ai-sdk', version: '0.0.0-development' }]),
    );
  });

  it('hands captures to the service queue when asked, and a worker writes them', async () => {
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, hydrate: false, capture: { delivery: 'queue' }, onEvent: log.onEvent });
    await generateText({ model: wrapLanguageModel({ model: scriptedModel(['Noted.']), middleware: memory }), prompt: 'We decided the freeze starts on 2026-12-18.' });
    await memory.flush();
    expect(log.events).toEqual([expect.objectContaining({ type: 'capture-queued', hookId: expect.stringMatching(/^hook_/) })]);
    await service.whenIdle();
    const found = await service.runtime(planner).query({ query: 'freeze' });
    expect(found.snippets.map((snippet) => snippet.text).join(' ')).toContain('2026-12-18');
    const deliveries = await service.explorer({ actor: { kind: 'company', companyId: 'acme' } }).listHookDeliveries({ hookKind: 'post_run_capture' });
    expect(deliveries.items).toEqual([expect.objectContaining({ hookId: (log.events[0] as { hookId: string }).hookId, status: 'succeeded' })]);
  });

  it('tells the host when the binding does not take run captures', async () => {
    await service.control({ actor: { kind: 'company', companyId: 'acme' } }).updateBinding('default', { hooks: { postRunCapture: false } });
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, hydrate: false, onEvent: log.onEvent });
    await generateText({ model: wrapLanguageModel({ model: scriptedModel(['Fine.']), middleware: memory }), prompt: 'Our standup is at nine.' });
    await memory.flush();
    expect(log.events).toEqual([expect.objectContaining({ type: 'capture-skipped', reason: expect.stringContaining('postRunCapture off') })]);
  });

  it('refuses bad settings with a typed error naming the field', () => {
    expect(() => memplaneMiddleware(service, { agent: { companyId: '', agentId: 'planner' } })).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('agent.companyId') }));
    expect(() => memplaneMiddleware(service, { agent, hydrate: { timeoutMs: -1 } })).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION' }));
    expect(() => memplaneMiddleware(service, { agent: { ...agent, extra: 'x' } as never })).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION' }));
    expect(() => memplaneMiddleware(service, { agent, hookActor: { kind: 'root' } as never })).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('actor') }));
  });
});
