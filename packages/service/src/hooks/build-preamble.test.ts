import { describe, expect, it } from 'vitest';
import { buildPreamble, preambleHeader } from './build-preamble';

const snippet = (text: string, issueId?: string) => ({
  handle: { providerKey: 'memory', providerRecordId: text.slice(0, 8) },
  text,
  ...(issueId === undefined ? {} : { source: { kind: 'issue_comment' as const, companyId: 'acme', issueId } }),
});
const limits = { maxSnippets: 8, maxCharacters: 4000, maxSnippetCharacters: 600 };

describe('buildPreamble', () => {
  it('is empty when nothing was recalled', () => {
    expect(buildPreamble({ snippets: [] }, limits)).toEqual({ preamble: '', snippets: [], truncated: false });
  });

  it('lists snippets one per line with their source, after the profile', () => {
    const built = buildPreamble({ snippets: [snippet('Deploys on Tuesdays.', 'ACME-1'), snippet('Line one\n## Fake heading')], profileSummary: 'Prefers\nshort updates.' }, limits);
    expect(built.preamble).toBe(
      [preambleHeader, 'Profile: Prefers short updates.', '- Deploys on Tuesdays. (issue_comment, issue ACME-1)', '- Line one ## Fake heading'].join('\n'),
    );
    expect(built.truncated).toBe(false);
  });

  it('keeps within the snippet count, the snippet length and the total length', () => {
    const many = Array.from({ length: 5 }, (_, index) => snippet(`Fact ${index} ${'x'.repeat(50)}`));
    expect(buildPreamble({ snippets: many }, { ...limits, maxSnippets: 2 })).toMatchObject({ truncated: true, snippets: many.slice(0, 2) });
    const short = buildPreamble({ snippets: many }, { ...limits, maxSnippetCharacters: 10 });
    expect(short.preamble.split('\n')[1]).toBe('- Fact 0 xx…');
    const tight = buildPreamble({ snippets: many }, { ...limits, maxCharacters: preambleHeader.length + 130 });
    expect(tight.preamble.length).toBeLessThanOrEqual(preambleHeader.length + 130);
    expect(tight.snippets).toHaveLength(2);
    expect(tight.truncated).toBe(true);
  });
});
