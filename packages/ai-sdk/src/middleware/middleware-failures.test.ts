import { generateText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acmeAdmin, createControllableProvider, createEmbeddedService } from '../test-support/embedded-service';
import { eventLog, scriptedModel, systemTexts } from '../test-support/mock-models';
import { memplaneMiddleware } from './memplane-middleware';

const agent = { companyId: 'acme', agentId: 'planner', runId: 'run-9' };

describe('memplaneMiddleware when memory fails', () => {
  const cleanUps: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const cleanUp of cleanUps.splice(0)) await cleanUp();
  });

  it('fails open after the hydration timeout: the model answers without the block and the host gets a warning', async () => {
    const hanging = createControllableProvider('hanging', { query: 'hang' });
    const { service, cleanUp } = await createEmbeddedService({ providers: [hanging.factory] }, { providerId: 'hanging' });
    cleanUps.push(cleanUp);
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, hydrate: { timeoutMs: 1500 }, capture: false, onEvent: log.onEvent });
    const mock = scriptedModel(['Answered without memory.']);

    // Only the timers the deadline uses are faked; the store's I/O runs as usual.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const reply = generateText({ model: wrapLanguageModel({ model: mock, middleware: memory }), prompt: 'What did we decide about deploys?' });
    await vi.advanceTimersByTimeAsync(1499);
    expect(mock.doGenerateCalls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect((await reply).text).toBe('Answered without memory.');
    expect(systemTexts(mock.doGenerateCalls[0])).toEqual([]);
    expect(log.events).toEqual([expect.objectContaining({ type: 'hydration-timeout', level: 'warning', timeoutMs: 1500, error: expect.objectContaining({ code: 'MEMORY_TIMEOUT' }) })]);

    // The service's own deadline ends the hanging recall as a failed MEMORY_TIMEOUT operation.
    await vi.advanceTimersByTimeAsync(10_000);
    hanging.release();
    vi.useRealTimers();
    await service.flush();
    const failed = await service.explorer(acmeAdmin).listOperations({ status: 'failed' });
    expect(failed.items).toEqual([expect.objectContaining({ operation: 'query', errorCode: 'MEMORY_TIMEOUT', heartbeatRunId: 'run-9' })]);
  });

  it('logs a failed capture as a failed operation, reports it, and never breaks the reply', async () => {
    const broken = createControllableProvider('broken', { capture: 'fail' });
    const { service, cleanUp } = await createEmbeddedService({ providers: [broken.factory], hooks: { timeoutMs: 5000, maxAttempts: 1 } }, { providerId: 'broken' });
    cleanUps.push(cleanUp);
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, onEvent: log.onEvent });
    const reply = await generateText({ model: wrapLanguageModel({ model: scriptedModel(['Still here.']), middleware: memory }), prompt: 'Remember that the release is frozen.' });
    expect(reply.text).toBe('Still here.');
    await memory.flush();
    expect(log.events.at(-1)).toMatchObject({ type: 'capture-failed', level: 'error', error: { code: 'MEMORY_API_CALL', message: expect.stringContaining('broken capture is down') } });

    await service.flush();
    const failed = await service.explorer(acmeAdmin).listOperations({ status: 'failed' });
    expect(failed.items).toEqual([expect.objectContaining({ operation: 'capture', heartbeatRunId: 'run-9', hookKind: 'post_run_capture', scope: expect.objectContaining({ agentId: 'planner' }) })]);
    const deliveries = await service.explorer(acmeAdmin).listHookDeliveries({ hookKind: 'post_run_capture' });
    expect(deliveries.items).toEqual([expect.objectContaining({ status: 'failed', receiver: 'binding:default' })]);
  });

  it('reports a capture the policy refuses, and the reply stands', async () => {
    const { service, cleanUp } = await createEmbeddedService();
    cleanUps.push(cleanUp);
    const log = eventLog();
    // An agent may not emit hooks under the default policy: both hooks are refused.
    const memory = memplaneMiddleware(service, { agent, hookActor: { kind: 'agent', companyId: 'acme', agentId: 'planner' }, onEvent: log.onEvent });
    const reply = await generateText({ model: wrapLanguageModel({ model: scriptedModel(['Fine.']), middleware: memory }), prompt: 'Note this.' });
    await memory.flush();
    expect(reply.text).toBe('Fine.');
    expect(log.types()).toEqual(['hydration-failed', 'capture-failed']);
    expect(log.events[1]).toMatchObject({ error: { code: 'MEMORY_SCOPE_VIOLATION' } });
  });

  it('keeps the reply when the event listener throws', async () => {
    const { service, cleanUp } = await createEmbeddedService();
    cleanUps.push(cleanUp);
    const memory = memplaneMiddleware(service, {
      agent,
      onEvent: () => {
        throw new TypeError('listener bug');
      },
    });
    const reply = await generateText({ model: wrapLanguageModel({ model: scriptedModel(['Fine.']), middleware: memory }), prompt: 'We always ship on green builds.' });
    await memory.flush();
    expect(reply.text).toBe('Fine.');
    expect(memory.pendingCaptures).toBe(0);
  });
});
