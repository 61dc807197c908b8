import type { MemoryAdapter } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { createEngineAdapter } from './engine-adapter';

const bindingKey = 'test';
const scope = { companyId: 'acme', agentId: 'planner' };
const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-1' };
const messages = [
  { role: 'user', content: 'Hi, I am Jerry, I lead the billing team.' },
  { role: 'assistant', content: 'Nice to meet you, Jerry! How can I help? The billing export runs nightly at 02:00.' },
  { role: 'user', content: 'Remind me to rotate the Stripe keys next week. Thanks!' },
  { role: 'assistant', content: 'Will do. Is there anything else I can help you with?' },
];

async function texts(adapter: MemoryAdapter, query: string): Promise<string[]> {
  return (await adapter.query({ bindingKey, scope, query })).snippets.map((snippet) => snippet.text);
}

describe('engine adapter: capturing a conversation', () => {
  it("extracts the user's facts and none of the assistant's turns", async () => {
    const adapter = await createEngineAdapter({ now: steppingClock() });
    const result = await adapter.capture({ bindingKey, scope, source, payload: { object: { messages } } });
    expect(result.records).toHaveLength(2);
    expect(await texts(adapter, 'help')).toEqual([]);
    expect(await texts(adapter, 'meet')).toEqual([]);
    // Only the user's items exist; context windows may rank one beside the other.
    expect((await texts(adapter, 'billing export nightly')).join('\n')).not.toContain('export');
    expect((await texts(adapter, 'Jerry billing team'))[0]).toBe('Hi, I am Jerry, I lead the billing team.');
    expect((await texts(adapter, 'rotate Stripe keys'))[0]).toBe('Remind me to rotate the Stripe keys next week.');
    // The introduction is a profile item and the reminder a todo: the profile surface finds the one.
    const profile = await adapter.profile!(scope);
    expect(profile.summary).toBe('- Hi, I am Jerry, I lead the billing team.');
  });

  it("extracts the assistant's statements, never its small talk, with extraction.assistantTurns 'keep'", async () => {
    const adapter = await createEngineAdapter({ now: steppingClock(), extraction: { assistantTurns: 'keep' } });
    await adapter.capture({ bindingKey, scope, source, payload: { object: { messages } } });
    expect(await texts(adapter, 'billing export nightly')).toContain('The billing export runs nightly at 02:00.');
    expect(await texts(adapter, 'help')).toEqual([]);
    expect(await texts(adapter, 'meet')).toEqual([]);
  });

  it('refuses a bad extraction setting, naming it', async () => {
    await expect(createEngineAdapter({ extraction: { assistantTurns: 'drop' as never } })).rejects.toMatchObject({
      code: 'MEMORY_CONFIGURATION',
      message: expect.stringContaining('extraction.assistantTurns'),
    });
  });
});

describe('engine: rule-based extraction of a conversation', () => {
  it('skips assistant, ai and model turns, keeps named speakers with their names, and drops small talk', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const result = await engine.memorize(
      { org: 'acme', project: 'apollo' },
      {
        type: 'conversation',
        messages: [
          { role: 'Caroline', content: 'Hey Mel! Good to see you! I went to the LGBTQ support group yesterday.' },
          { role: 'AI', content: 'Thanks for sharing. Support groups meet every Thursday.' },
          { role: 'model', content: 'Is there anything else I can help you with? The next meeting is in Lisbon.' },
          { role: 'Melanie', content: 'Thanks, Caroline! I painted a lake sunrise last year.' },
        ],
      },
    );
    const items = [...(await engine.getItems({ org: 'acme', project: 'apollo' }, result.itemIds)).values()];
    expect(items.map((item) => item.text).sort()).toEqual(['Caroline: I went to the LGBTQ support group yesterday.', 'Melanie: I painted a lake sunrise last year.']);
  });

  it('stores nothing for a conversation that is only small talk and assistant turns', async () => {
    const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
    const result = await engine.memorize(
      { org: 'acme', project: 'apollo' },
      { type: 'conversation', messages: [{ role: 'user', content: 'Thanks!' }, { role: 'assistant', content: 'You are welcome. The invoice run is due on Friday.' }] },
    );
    expect(result.itemIds).toEqual([]);
  });
});
