import { generateText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { acmeAdmin, createControllableProvider, createEmbeddedService } from '../test-support/embedded-service';
import { eventLog, scriptedModel, systemTexts } from '../test-support/mock-models';
import { memplaneMiddleware } from './memplane-middleware';
import { hydrationBlockOpen } from './prompt-parts';

const agent = { companyId: 'acme', agentId: 'planner', runId: 'run-3' };

describe('memplaneMiddleware limits', () => {
  const cleanUps: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0)) await cleanUp();
  });

  it('caps the block in tokens: characters through the service, exact lines with a tokenizer', async () => {
    const { service, cleanUp } = await createEmbeddedService();
    cleanUps.push(cleanUp);
    await service.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' } }).upsertRecords({
      records: Array.from({ length: 8 }, (_, index) => ({ text: `Deploy rule ${index}: deploys need a green build, a named owner and a review by two people.` })),
    });
    // A strict tokenizer: two characters a token, half what the service's character cap assumes.
    const tokens = (value: string) => Math.ceil(value.length / 2);
    const prompt = 'What are the deploy rules?';

    const byCharacters = scriptedModel(['ok']);
    await generateText({ model: wrapLanguageModel({ model: byCharacters, middleware: memplaneMiddleware(service, { agent, capture: false, hydrate: { maxTokens: 100 } }) }), prompt });
    const block = systemTexts(byCharacters.doGenerateCalls[0]).find((value) => value.startsWith(hydrationBlockOpen)) ?? '';
    expect(block).toContain('Deploy rule');
    expect(block.length).toBeLessThanOrEqual(100 * 4 + hydrationBlockOpen.length + 40);

    const log = eventLog();
    const byTokenizer = scriptedModel(['ok']);
    const counted = memplaneMiddleware(service, { agent, capture: false, hydrate: { maxTokens: 80, countTokens: tokens }, onEvent: log.onEvent });
    await generateText({ model: wrapLanguageModel({ model: byTokenizer, middleware: counted }), prompt });
    const exact = systemTexts(byTokenizer.doGenerateCalls[0]).find((value) => value.startsWith(hydrationBlockOpen)) ?? '';
    const preamble = exact.split('\n').slice(1, -1).join('\n');
    expect(tokens(preamble)).toBeLessThanOrEqual(80);
    expect(preamble).toContain('Deploy rule');
    expect(log.events[0]).toMatchObject({ type: 'hydrated', truncated: true });
  });

  it('makes a reply wait for a capture slot instead of dropping a capture', async () => {
    const slow = createControllableProvider('slow', { capture: 'hang' });
    const { service, cleanUp } = await createEmbeddedService({ providers: [slow.factory] }, { providerId: 'slow' });
    cleanUps.push(cleanUp);
    const log = eventLog();
    const memory = memplaneMiddleware(service, { agent, hydrate: false, capture: { maxPending: 1 }, onEvent: log.onEvent });
    const model = wrapLanguageModel({ model: scriptedModel(['First reply.', 'Second reply.']), middleware: memory });

    expect((await generateText({ model, prompt: 'We ship on Fridays.' })).text).toBe('First reply.');
    expect(memory.pendingCaptures).toBe(1);
    let secondDone = false;
    const second = generateText({ model, prompt: 'We freeze on Thursdays.' }).then((result) => {
      secondDone = true;
      return result;
    });
    // The provider still holds the first capture: the second reply waits for the slot.
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondDone).toBe(false);
    slow.release();
    expect((await second).text).toBe('Second reply.');
    await slow.waitingCall();
    slow.release();
    await memory.flush();
    expect(log.types()).toEqual(['captured', 'captured']);
    await service.flush();
    const captures = await service.explorer(acmeAdmin).listOperations({ runId: 'run-3' });
    expect(captures.items.filter((entry) => entry.operation === 'capture' && entry.status === 'succeeded')).toHaveLength(2);
  });
});
