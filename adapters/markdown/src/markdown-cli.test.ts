import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownCommand } from './markdown-cli';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await markdownCommand.run(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('memplane markdown', () => {
  it('imports with a progress bar, then queries, lists, gets and reports stats', async () => {
    const root = temporary.root();
    const file = join(root, 'records.jsonl');
    writeFileSync(file, Array.from({ length: 1200 }, (_, index) => JSON.stringify({ text: `Imported note ${index} about the quarterly budget.`, metadata: { index } })).join('\n'));
    const imported = await run('import', '--root', root, '--company', 'acme', file);
    expect(imported).toMatchObject({ code: 0, stdout: 'Imported 1200 records.\n' });
    expect(imported.stderr).toContain('import [##############################] 100% 1200/1200');
    const queried = await run('query', '--root', root, '--company', 'acme', '--top-k', '2', '--json', 'quarterly', 'budget');
    const snippets = JSON.parse(queried.stdout) as Array<{ handle: { providerRecordId: string }; text: string }>;
    expect(snippets).toHaveLength(2);
    const got = await run('get', '--root', root, '--company', 'acme', snippets[0]!.handle.providerRecordId);
    expect(got.stdout).toContain(snippets[0]!.text);
    expect((await run('get', '--root', root, '--company', 'other', snippets[0]!.handle.providerRecordId)).code).toBe(1);
    const listed = await run('list', '--root', root, '--company', 'acme', '--limit', '3');
    expect(listed.stdout.split('\n').filter((line) => line.startsWith('m_'))).toHaveLength(3);
    expect(listed.stdout).toContain('next: --cursor c1.');
    expect(await run('stats', '--root', root)).toMatchObject({ code: 0, stdout: 'records 1200\nresources 0\nfiles 2\n' });
  });

  it('rebuilds a lost index with a progress bar and reports usage errors with exit code 2', async () => {
    const root = temporary.root();
    writeFileSync(join(root, 'seed.jsonl'), JSON.stringify({ text: 'Seed record.' }));
    await run('import', '--root', root, '--company', 'acme', join(root, 'seed.jsonl'));
    rmSync(join(root, '.memplane/index.sqlite'));
    const reindexed = await run('reindex', '--root', root);
    expect(reindexed.code).toBe(0);
    expect(reindexed.stderr).toMatch(/reindex \[#+\] 100% 1\/1\nIndex rebuilt \(the index did not exist\): 1 records/);
    expect((await run('reindex', '--root', root, '--full')).stdout).toBe('Rebuilt the index: 1 records.\n');
    expect((await run('query', '--root', root, 'text')).code).toBe(2);
    expect((await run('stats')).code).toBe(2);
    expect((await run('explode', '--root', root)).code).toBe(2);
    expect((await run('stats', '--root', root, '--bogus')).code).toBe(2);
  });
});
