import { describe, expect, it } from 'vitest';
import { splitSentences } from '@memplane/rules';
import { createRuleBasedExtractor } from './markdown-rule-extractor';

const extractor = createRuleBasedExtractor();
const scope = { companyId: 'acme' };

describe('rule-based extractor', () => {
  it('classifies each sentence by its cue and keeps it as written', async () => {
    const text = [
      'My name is Jerry and I run the platform team.',
      'I prefer concise answers.',
      'Our goal is to ship the memory layer this quarter.',
      'Never include secrets in prompts.',
      'We decided to use SQLite over Postgres.',
      'Need to review the memory module.',
      'Maybe the user is a graduate student.',
      'The release deadline is 2026-12-01.',
      'Keywords: RAG, memory, agents',
      'The codebase uses FastAPI for the API.',
      'Lunch was nice with everyone today.',
    ].join('\n');
    const { items } = await extractor.extract({ text, scope });
    expect(items.map((item) => item.kind)).toEqual([
      'profile', 'preference', 'goal', 'constraint', 'decision', 'todo', 'hypothesis', 'fact', 'keyword_set', 'project', 'note',
    ]);
    for (const item of items) expect(item.quote).toBe(item.text);
  });

  it("skips the assistant's turns of a conversation unless told to keep them, and names named speakers", async () => {
    const messages = [
      { role: 'user', content: 'Hi, I am Jerry, I lead the billing team.' },
      { role: 'assistant', content: 'Nice to meet you! How can I help? Invoices are sent on the first of the month.' },
      { role: 'Caroline', content: 'I moved the standup to 09:30 on Mondays.' },
    ];
    const text = messages.map((message) => `${message.role}: ${message.content}`).join('\n');
    const skipped = await extractor.extract({ text, scope, messages });
    expect(skipped.items.map((item) => [item.kind, item.text, item.quote])).toEqual([
      ['profile', 'Hi, I am Jerry, I lead the billing team.', 'Hi, I am Jerry, I lead the billing team.'],
      ['fact', 'Caroline: I moved the standup to 09:30 on Mondays.', 'I moved the standup to 09:30 on Mondays.'],
    ]);
    const kept = await createRuleBasedExtractor({ assistantTurns: 'keep' }).extract({ text, scope, messages });
    expect(kept.items.map((item) => item.text)).toEqual([
      'Hi, I am Jerry, I lead the billing team.',
      'Invoices are sent on the first of the month.',
      'Caroline: I moved the standup to 09:30 on Mondays.',
    ]);
  });

  it('is deterministic and merges identical sentences', async () => {
    const text = 'I prefer tabs. I prefer tabs. The build runs nightly on the CI.';
    const first = await extractor.extract({ text, scope });
    expect(first).toEqual(await extractor.extract({ text, scope }));
    expect(first.items.map((item) => item.text)).toEqual(['I prefer tabs.', 'The build runs nightly on the CI.']);
  });

  it('keeps residue too short to split as one note, unless it is small talk, and splits lines and sentences', async () => {
    expect((await extractor.extract({ text: 'Postgres 16', scope })).items).toEqual([{ kind: 'note', confidence: 0.6, text: 'Postgres 16', quote: 'Postgres 16' }]);
    expect((await extractor.extract({ text: 'ok thanks', scope })).items).toEqual([]);
    expect(splitSentences('One two three. Four five six!\nSeven eight nine')).toEqual(['One two three.', 'Four five six!', 'Seven eight nine']);
  });
});
