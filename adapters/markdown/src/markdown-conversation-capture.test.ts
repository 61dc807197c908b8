import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuleBasedExtractor } from './markdown-rule-extractor';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const scope = { companyId: 'acme', agentId: 'planner' };
const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-1' };
const temporary = useTemporaryRoots();

const conversation = {
  messages: [
    { role: 'user', content: 'Hi, I am Jerry, I lead the billing team.' },
    { role: 'assistant', content: 'Nice to meet you, Jerry! How can I help? The billing export runs nightly at 02:00.' },
    { role: 'user', content: 'Remind me to rotate the Stripe keys next week. Thanks!' },
    { role: 'assistant', content: 'Will do. Is there anything else I can help you with?' },
  ],
};

async function texts(adapter: ReturnType<typeof temporary.open>, query: string): Promise<string[]> {
  return (await adapter.query({ bindingKey, scope, query })).snippets.map((snippet) => snippet.text);
}

function recordKinds(root: string): string[] {
  const folder = join(root, 'companies/acme/agent=planner');
  const file = readdirSync(folder).find((name) => name.endsWith('.md')) as string;
  return [...readFileSync(join(folder, file), 'utf8').matchAll(/- kind: (\w+)/g)].map((match) => match[1] as string);
}

describe('markdown adapter: capturing a conversation', () => {
  it("extracts the user's facts and none of the assistant's turns", async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const result = await adapter.capture({ bindingKey, scope, source, payload: { object: conversation } });
    expect(result.records).toHaveLength(2);
    expect(await texts(adapter, 'help')).toEqual([]);
    expect(await texts(adapter, 'meet')).toEqual([]);
    // Only the user's records exist; neighbour windows may rank one beside the other.
    expect((await texts(adapter, 'billing export nightly')).join('\n')).not.toContain('export');
    expect((await texts(adapter, 'Jerry'))[0]).toBe('Hi, I am Jerry, I lead the billing team.');
    expect((await texts(adapter, 'Stripe keys'))[0]).toBe('Remind me to rotate the Stripe keys next week.');
    expect(recordKinds(adapter.root)).toEqual(['profile', 'todo']);
    // The user's introduction is the scope's profile.
    expect((await adapter.profile(scope)).summary).toContain('Jerry');
  });

  it('keeps every turn as the residue, one role: content line each', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    await adapter.capture({ bindingKey, scope, source, payload: { object: conversation } });
    const folder = join(adapter.root, 'companies/acme/agent=planner/resources');
    const residue = readFileSync(join(folder, readdirSync(folder)[0] as string), 'utf8');
    expect(residue).toContain('user: Hi, I am Jerry, I lead the billing team.\nassistant: Nice to meet you, Jerry!');
  });

  it("extracts the assistant's statements, never its small talk, with extraction.assistantTurns 'keep'", async () => {
    const adapter = temporary.open({ root: temporary.root(), extraction: { assistantTurns: 'keep' } });
    await adapter.capture({ bindingKey, scope, source, payload: { object: conversation } });
    expect(await texts(adapter, 'billing export nightly')).toContain('The billing export runs nightly at 02:00.');
    expect(await texts(adapter, 'help')).toEqual([]);
    expect(await texts(adapter, 'meet')).toEqual([]);
  });

  it('keeps the turns of named speakers, who are not assistants, with their names', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const messages = [
      { role: 'Caroline', content: 'Hey Mel! Good to see you! I went to the LGBTQ support group yesterday.' },
      { role: 'Melanie', content: 'Thanks, Caroline! I painted a lake sunrise last year.' },
    ];
    await adapter.capture({ bindingKey, scope, source, payload: { object: { messages } } });
    expect((await texts(adapter, 'support group'))[0]).toBe('Caroline: I went to the LGBTQ support group yesterday.');
    expect((await texts(adapter, 'painted sunrise'))[0]).toBe('Melanie: I painted a lake sunrise last year.');
    expect(await texts(adapter, 'good see')).toEqual([]);
  });

  it('stores a capture that is only small talk as nothing, and short content as one note', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    expect((await adapter.capture({ bindingKey, scope, source, payload: { text: 'Thanks, Jerry!' } })).records).toEqual([]);
    expect((await adapter.capture({ bindingKey, scope, source, payload: { object: { messages: [{ role: 'user', content: 'Okay, thanks!' }] } } })).records).toEqual([]);
    expect((await adapter.capture({ bindingKey, scope, source, payload: { text: 'Postgres 16' } })).records).toHaveLength(1);
  });

  it('refuses extraction settings beside an extractor of your own', () => {
    expect(() => temporary.open({ root: temporary.root(), extractor: createRuleBasedExtractor(), extraction: { assistantTurns: 'keep' } })).toThrow(
      expect.objectContaining({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('settings.extraction') }),
    );
    expect(() => temporary.open({ root: temporary.root(), extraction: { assistantTurns: 'drop' as never } })).toThrow(expect.objectContaining({ code: 'MEMORY_VALIDATION' }));
  });
});
