import { describe, expect, it } from 'vitest';
import { handWrittenNotes, renderMarkdown, type StoredResult } from './benchmarks-markdown';

function result(name: string, figure: string): StoredResult {
  return {
    name,
    description: `What ${name} measures.`,
    ranAt: '2026-01-02T03:04:05.000Z',
    machine: { node: 'v20.20.0', cpus: 2, cpuModel: 'Test CPU' },
    tables: [{ title: `${name} table`, columns: ['measure', 'value'], rows: [['p50', figure]], notes: ['How it was measured.'] }],
    figures: {},
  };
}

const note = (name: string, text: string) => `<!-- notes: ${name} -->\n${text}\n<!-- /notes -->`;

describe('BENCHMARKS.md', () => {
  it('keeps each hand-written note under its benchmark when the file is rendered again', () => {
    const first = renderMarkdown([result('alpha', '1.0'), result('beta', '2.0')]);
    const edited = first.replace('## beta', `${note('alpha', '- An earlier run (2026-01-01, load 4): 1.5.')}\n\n## beta`);
    const notes = handWrittenNotes(edited);
    expect([...notes.keys()]).toEqual(['alpha']);

    const again = renderMarkdown([result('alpha', '0.9'), result('beta', '2.1')], notes);
    expect(again).toContain('| p50 | 0.9 |');
    expect(again).toContain(note('alpha', '- An earlier run (2026-01-01, load 4): 1.5.'));
    expect(again.indexOf('An earlier run')).toBeGreaterThan(again.indexOf('## alpha'));
    expect(again.indexOf('An earlier run')).toBeLessThan(again.indexOf('## beta'));
    // Rendering what was rendered changes nothing.
    expect(renderMarkdown([result('alpha', '0.9'), result('beta', '2.1')], handWrittenNotes(again))).toBe(again);
  });

  it('keeps several notes of one benchmark in order, and a note whose benchmark has no result at the end', () => {
    const notes = handWrittenNotes(
      [note('alpha', 'first'), 'text between', note('gone', 'orphan'), note('alpha', 'second')].join('\n\n'),
    );
    const rendered = renderMarkdown([result('alpha', '1.0')], notes);
    expect(rendered.indexOf('first')).toBeLessThan(rendered.indexOf('second'));
    expect(rendered.trimEnd().endsWith(note('gone', 'orphan'))).toBe(true);
    expect(rendered).not.toContain('text between');
  });

  it('reads markers only on lines of their own', () => {
    expect(handWrittenNotes('Write notes between `<!-- notes: <name> -->` and `<!-- /notes -->`.').size).toBe(0);
  });
});
