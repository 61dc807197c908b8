import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const scope = { companyId: 'acme', agentId: 'planner' };
const temporary = useTemporaryRoots();

/**
 * Replaces a file's content with an edit of the same size by `cp -p` from a copy that carries the
 * file's own modification time: the target keeps its inode, size and nanosecond mtime.
 */
function editKeepingSizeAndTime(path: string, from: string, to: string): void {
  expect(Buffer.byteLength(to)).toBe(Buffer.byteLength(from));
  const before = statSync(path, { bigint: true });
  const edited = `${path}.edited`;
  writeFileSync(edited, readFileSync(path, 'utf8').replace(from, to));
  execFileSync('touch', ['-r', path, edited]);
  execFileSync('cp', ['-p', edited, path]);
  rmSync(edited);
  const after = statSync(path, { bigint: true });
  expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
}

describe('markdown reindex change detection', () => {
  it('sees an edit that keeps the size, the modification time and the inode', async () => {
    const adapter = temporary.open({ root: temporary.root(), now: () => new Date('2026-11-22T10:00:00Z') });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Deploys happen on Tuesday.' }] });
    const file = join(adapter.root, 'companies/acme/agent=planner/2026-11-22.md');
    editKeepingSizeAndTime(file, 'Deploys happen on Tuesday.', 'Deploys happen on Thursday');
    const report = adapter.reindex();
    expect(report.changed).toEqual(['companies/acme/agent=planner/2026-11-22.md']);
    expect(await adapter.get(records![0]!, scope)).toMatchObject({ text: 'Deploys happen on Thursday' });
  });

  it('does not read again the files it wrote itself', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    for (let batch = 0; batch < 3; batch += 1) {
      await adapter.upsertRecords({ bindingKey, scope: { ...scope, agentId: `agent-${batch % 2}` }, records: [{ text: `Batch ${batch} note.` }, { text: `Batch ${batch} other note.` }] });
    }
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Corrected soon.' }] });
    await adapter.correct(records![0]!, { text: 'Corrected now.' }, scope);
    await adapter.capture({ bindingKey, scope, source: { kind: 'run', companyId: 'acme' }, payload: { text: 'We decided to ship on Monday.' } });
    expect(adapter.reindex()).toMatchObject({ changed: [], removed: [] });
  });
});
