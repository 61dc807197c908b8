import { describe, expect, it } from 'vitest';
import { createRuleBasedExtractor, splitSentences } from './markdown-rule-extractor';

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

  it('is deterministic and merges identical sentences', async () => {
    const text = 'I prefer tabs. I prefer tabs. The build runs nightly on the CI.';
    const first = await extractor.extract({ text, scope });
    expect(first).toEqual(await extractor.extract({ text, scope }));
    expect(first.items.map((item) => item.text)).toEqual(['I prefer tabs.', 'The build runs nightly on the CI.']);
  });

  it('keeps residue too short to split as one note, and splits lines and sentences', async () => {
    expect((await extractor.extract({ text: 'ok thanks', scope })).items).toEqual([{ kind: 'note', confidence: 0.6, text: 'ok thanks', quote: 'ok thanks' }]);
    expect(splitSentences('One two three. Four five six!\nSeven eight nine')).toEqual(['One two three.', 'Four five six!', 'Seven eight nine']);
  });
});
