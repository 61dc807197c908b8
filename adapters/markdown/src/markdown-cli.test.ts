import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownCommand } from './markdown-cli';
import { useTemporaryRoots } from './testing/temporary-root';

const temporary = useTemporaryRoots();

async function run(...argv: string[]) {
  return runWith({}, ...argv);
}

async function runWith(options: { stderrIsTTY?: boolean }, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await markdownCommand.run(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), ...options });
  return { code, stdout, stderr };
}

function markdownFilesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md') && !path.startsWith('.memplane'))
    .map((path) => join(directory, path));
}

async function seededRoot(): Promise<{ root: string; file: string }> {
  const root = temporary.root();
  const seed = join(root, 'seed.jsonl');
  writeFileSync(seed, [JSON.stringify({ text: 'Seed record one.', metadata: { a: 1 } }), JSON.stringify({ text: 'Seed record two.' })].join('\n'));
  expect((await run('import', '--root', root, '--company', 'acme', seed)).code).toBe(0);
  const [file] = markdownFilesUnder(root);
  return { root, file: file as string };
}

describe('memplane markdown', () => {
  it('imports with a progress bar on a terminal, then queries, lists, gets and reports stats', async () => {
    const root = temporary.root();
    const file = join(root, 'records.jsonl');
    writeFileSync(file, Array.from({ length: 1200 }, (_, index) => JSON.stringify({ text: `Imported note ${index} about the quarterly budget.`, metadata: { index } })).join('\n'));
    const imported = await runWith({ stderrIsTTY: true }, 'import', '--root', root, '--company', 'acme', file);
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

  it('never draws progress frames into a stderr that is not a terminal', async () => {
    const root = temporary.root();
    const file = join(root, 'records.jsonl');
    writeFileSync(file, Array.from({ length: 30 }, (_, index) => JSON.stringify({ text: `Note ${index}.` })).join('\n'));
    const imported = await run('import', '--root', root, '--company', 'acme', file);
    expect(imported.code).toBe(0);
    rmSync(join(root, '.memplane/index.sqlite'));
    const reindexed = await run('reindex', '--root', root);
    expect(reindexed.code).toBe(0);
    expect(`${imported.stderr}${reindexed.stderr}`).not.toContain('\r');
    expect(`${imported.stderr}${reindexed.stderr}`).not.toContain('[#');
  });

  it('reindex reports what opening reconciled: files edited by hand and their parse problems', async () => {
    const { root, file } = await seededRoot();
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('- metadata: {"a":1}', '- metadata: {"a":').replace('Seed record two.', 'Seed record two, edited by hand.'));
    const reindexed = await run('reindex', '--root', root);
    expect(reindexed.code).toBe(0);
    expect(reindexed.stdout).toBe('Re-read 1 changed files, dropped 0 removed files, 1 problems.\n');
    expect(reindexed.stderr).toMatch(/^companies\/acme\/_company\/\S+\.md:\d+: Memory m_\S+: field metadata is not valid JSON; it was ignored\n$/);
    // A file is parsed when it changes, so a second run has nothing to read again and nothing to report.
    expect(JSON.parse((await run('reindex', '--root', root, '--json')).stdout)).toEqual({ changed: [], removed: [], problems: [] });
  });

  it('reindex after a lost index says the index was rebuilt on opening, with the records it holds', async () => {
    const { root } = await seededRoot();
    rmSync(join(root, '.memplane/index.sqlite'));
    const reindexed = await run('reindex', '--root', root);
    expect(reindexed).toMatchObject({ code: 0, stderr: '' });
    expect(reindexed.stdout).toMatch(/^Rebuilt the index on opening \(the index did not exist\): 2 records\. Re-read \d+ changed files, dropped 0 removed files, 0 problems\.\n$/);
    expect((await run('reindex', '--root', root, '--full')).stdout).toBe('Rebuilt the index: 2 records, 0 problems.\n');
  });

  it('never creates a root on a read-only command: a missing root is an error with exit code 2', async () => {
    const parent = temporary.root();
    const typo = join(parent, 'typo');
    for (const argv of [['stats'], ['reindex'], ['reindex', '--full'], ['list', '--company', 'acme'], ['query', '--company', 'acme', 'text'], ['get', '--company', 'acme', 'm_1']]) {
      const result = await run(...argv, '--root', typo);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^memplane markdown: the root \S+typo does not exist\. Only `memplane markdown import` creates a root/);
      expect(result.stdout).toBe('');
      expect(existsSync(typo)).toBe(false);
    }
    const missingFile = await run('import', '--root', typo, '--company', 'acme', join(parent, 'absent.jsonl'));
    expect(missingFile).toMatchObject({ code: 2, stderr: expect.stringMatching(/^memplane markdown: import: the file \S+absent\.jsonl does not exist\./) });
    expect(existsSync(typo)).toBe(false);
    writeFileSync(typo, 'not a folder');
    expect(await run('stats', '--root', typo)).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a folder') });
  });

  it('never turns an existing folder that is not a memory root into one on a read-only command', async () => {
    const folder = temporary.root();
    writeFileSync(join(folder, 'notes.txt'), 'someone else\'s folder');
    for (const argv of [['stats'], ['reindex'], ['list', '--company', 'acme'], ['query', '--company', 'acme', 'text'], ['get', '--company', 'acme', 'm_1']]) {
      const result = await run(...argv, '--root', folder);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/is not a markdown memory root \(it has neither companies\/ nor \.memplane\/\)/);
      expect(readdirSync(folder)).toEqual(['notes.txt']);
    }
  });

  it('refuses an import file with a bad line before it creates the root or writes a batch', async () => {
    const parent = temporary.root();
    const fresh = join(parent, 'fresh');
    const file = join(parent, 'records.jsonl');
    const good = Array.from({ length: 600 }, (_, index) => JSON.stringify({ text: `Record ${index}.` }));
    // Line 560 sits in the second batch of 500: the first batch must not be written either.
    good[559] = JSON.stringify({ text: 'Wrong shape.', scope: { companyId: 'other' } });
    writeFileSync(file, good.join('\n'));
    const refused = await run('import', '--root', fresh, '--company', 'acme', file);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(/^memplane markdown: \S+records\.jsonl:560: Invalid upsertRecords: records\.0\.scope: Unrecognized key: "scope"/);
    expect(existsSync(fresh)).toBe(false);

    const { root } = await seededRoot();
    expect((await run('import', '--root', root, '--company', 'acme', file)).code).toBe(2);
    expect((await run('stats', '--root', root, '--json')).stdout).toContain('"records": 2');
  });

  it('reports usage errors with exit code 2 before opening the root', async () => {
    const { root } = await seededRoot();
    for (const argv of [['query', '--root', root, 'text'], ['stats'], ['explode', '--root', root], ['stats', '--root', root, '--bogus'], ['list', '--root', root, '--company', 'acme', '--limit', '0'], []]) {
      const result = await run(...argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^memplane markdown: /);
    }
  });

  it('prints the full usage for --help, a subcommand\'s for <subcommand> --help, and the version for --version', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    for (const subcommand of ['reindex', 'stats', 'query', 'list', 'get', 'import']) expect(help.stdout).toContain(`  ${subcommand} `);
    expect(help.stdout).toContain('Exit codes: 0 done, 1 the work failed');
    const stats = await run('stats', '--help');
    expect(stats).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: memplane markdown stats \[options\]/) });
    expect(stats.stdout).toContain('--root <dir>');
    const query = await run('query', '--help');
    for (const option of ['--company <id>', '--agent <id>', '--namespace <name>', '--top-k <n>', '<text...>']) expect(query.stdout).toContain(option);
    expect(await run('--version')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/) });
  });
});
