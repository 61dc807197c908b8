import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const scope = { companyId: 'acme', agentId: 'planner' };
const temporary = useTemporaryRoots();

function recordFile(root: string, folder = 'companies/acme/agent=planner'): string {
  const name = readdirSync(join(root, folder)).find((file) => file.endsWith('.md')) as string;
  return join(root, folder, name);
}

describe('markdown adapter: storage', () => {
  it('writes each record as a section of a per-company, per-scope markdown file', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root, now: () => new Date('2026-11-22T10:00:00Z') });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The deploy window is Tuesday.', metadata: { team: 'ops' } }] });
    const content = readFileSync(join(root, 'companies/acme/agent=planner/2026-11-22.md'), 'utf8');
    expect(content).toContain(`## Memory ${records?.[0]?.providerRecordId}`);
    expect(content).toContain('- scope: {"agentId":"planner","companyId":"acme"}');
    expect(content).toContain('- metadata: {"team":"ops"}');
    expect(content).toContain('~~~text\nThe deploy window is Tuesday.\n~~~');
  });

  it('keeps hostile company ids and namespaces inside the root', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    for (const companyId of ['../../escape', '/etc', '..', 'x'.repeat(256)]) {
      const hostile = { companyId, namespace: '../../../tmp/owned' };
      const { records } = await adapter.upsertRecords({ bindingKey, scope: hostile, records: [{ text: `Record of ${companyId.slice(0, 20)}` }] });
      expect(await adapter.get(records![0]!, hostile)).toMatchObject({ text: `Record of ${companyId.slice(0, 20)}` });
    }
    const companies = readdirSync(join(root, 'companies'));
    expect(companies).toHaveLength(4);
    for (const name of companies) expect(name).not.toMatch(/^\.|[/\\]/);
  });

  it('merges exact duplicates in a scope instead of piling them up, and counts a fact use', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const first = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The release is due on 2026-12-01.' }, { text: 'The release is due on 2026-12-01.' }] });
    const again = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The release is due on 2026-12-01.', metadata: { seen: 2 } }] });
    const other = await adapter.upsertRecords({ bindingKey, scope: { companyId: 'acme' }, records: [{ text: 'The release is due on 2026-12-01.' }] });
    expect(first.records?.[1]).toEqual(first.records?.[0]);
    expect(again.records?.[0]).toEqual(first.records?.[0]);
    expect(other.records?.[0]).not.toEqual(first.records?.[0]);
    expect((await adapter.list({ bindingKey, scope })).items).toHaveLength(1);
    expect(await adapter.get(first.records![0]!, scope)).toMatchObject({ metadata: { seen: 2 } });
    expect(readFileSync(recordFile(adapter.root), 'utf8')).toContain('- use_count: 2');
  });

  it('supersedes on correct and keeps the history in the markdown', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Deploys happen on Tuesday.', metadata: { a: 1 } }] });
    const corrected = await adapter.correct(records![0]!, { text: 'Deploys happen on Wednesday.', metadata: { b: 2 }, reason: 'moved' }, scope);
    expect(corrected.supersedes).toEqual(records![0]);
    expect(await adapter.get(corrected.record, scope)).toMatchObject({ text: 'Deploys happen on Wednesday.', metadata: { a: 1, b: 2 } });
    expect(await adapter.get(records![0]!, scope)).toMatchObject({ text: 'Deploys happen on Tuesday.' });
    expect((await adapter.list({ bindingKey, scope })).items.map((item) => item.text)).toEqual(['Deploys happen on Wednesday.']);
    expect((await adapter.query({ bindingKey, scope, query: 'deploys' })).snippets.map((item) => item.text)).toEqual(['Deploys happen on Wednesday.']);
    const content = readFileSync(recordFile(adapter.root), 'utf8');
    expect(content).toMatch(/- status: superseded[\s\S]*- superseded_by: "m_/);
    expect(content).toMatch(/- version: 2[\s\S]*- supersedes: "m_[\s\S]*- reason: "moved"/);
    await adapter.forget([corrected.record], scope);
    const folder = join(adapter.root, 'companies/acme/agent=planner');
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.md'))) {
      expect(readFileSync(join(folder, name), 'utf8')).not.toContain('Deploys happen');
    }
    expect(await adapter.get(records![0]!, scope)).toBeNull();
  });

  it('returns only approved records from query, and lists pending ones for review', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Contact the vendor at sales@vendor.example about invoices.' }, { text: 'Invoices are paid monthly by the vendor.' }] });
    const found = await adapter.query({ bindingKey, scope, query: 'vendor invoices' });
    expect(found.snippets.map((snippet) => snippet.text)).toEqual(['Invoices are paid monthly by the vendor.']);
    expect((await adapter.list({ bindingKey, scope })).items).toHaveLength(2);
  });

  it('hides expired todos from query', async () => {
    const adapter = temporary.open({ root: temporary.root(), now: () => new Date('2026-11-22T10:00:00Z') });
    await adapter.upsertRecords({
      bindingKey,
      scope,
      records: [
        { text: 'Need to renew the certificate.', metadata: { expires_at: '2026-11-01T00:00:00Z' } },
        { text: 'Need to renew the domain.', metadata: { expires_at: '2026-12-31T00:00:00Z' } },
      ],
    });
    const found = await adapter.query({ bindingKey, scope, query: 'renew' });
    expect(found.snippets.map((snippet) => snippet.text)).toEqual(['Need to renew the domain.']);
  });

  it('summarises profile, preference, goal and constraint items in profile()', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'My name is Jerry.' }, { text: 'I prefer concise answers.' }, { text: 'Never deploy on Fridays.' }, { text: 'Lunch was great.' }] });
    const profile = await adapter.profile(scope);
    expect(profile.summary).toBe('Profile: My name is Jerry.\nPreferences: I prefer concise answers.\nConstraints: Never deploy on Fridays.');
    expect(profile.items?.map((item) => item.text)).toHaveLength(3);
  });

  it('captures residue as a resource and links each extracted item to it by evidence', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const source = { kind: 'run' as const, companyId: 'acme', runId: 'run-1' };
    const result = await adapter.capture({ bindingKey, scope, source, payload: { text: 'I prefer small pull requests. We decided to ship weekly.' }, metadata: { origin: 'test' } });
    expect(result.records).toHaveLength(2);
    const resources = readFileSync(join(adapter.root, 'companies/acme/agent=planner/resources', readdirSync(join(adapter.root, 'companies/acme/agent=planner/resources'))[0]!), 'utf8');
    const resourceId = /## Resource (\S+)/.exec(resources)?.[1];
    expect(resources).toMatch(/- content_hash: sha256:[0-9a-f]{64}/);
    const records = readFileSync(recordFile(adapter.root), 'utf8');
    expect(records).toContain(`- evidence: [{"quote":"I prefer small pull requests.","resourceId":"${resourceId}"}]`);
    expect(records).toMatch(/- kind: preference[\s\S]*- kind: decision/);
    expect(await adapter.get(result.records![0]!, scope)).toMatchObject({ source, metadata: { origin: 'test' } });
  });

  it('explains a query result with its lexical stage', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The staging database is rebuilt nightly.' }] });
    const bundle = await adapter.query({ bindingKey, scope, query: 'staging database' });
    const explanation = await adapter.explain(bundle, scope);
    expect(explanation.steps.map((step) => step.stage)).toEqual(['lexical', 'fusion']);
    expect(explanation.steps[0]?.details).toContain('staging, database');
  });
});

describe('markdown adapter: hand edits and the index', () => {
  it('picks up records a person edits, adds and deletes, on reindex()', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Original text one.' }, { text: 'Second record stays.' }] });
    const file = recordFile(root);
    let content = readFileSync(file, 'utf8').replace('Original text one.', 'Edited by hand one.');
    content += '\n## Memory hand-added\n\n- kind: preference\n\n~~~text\nI prefer handwritten notes.\n~~~\n';
    content = content.replace(/## Memory \S+\n\n(?:(?!## Memory)[\s\S])*?Second record stays\.\n~~~\n/, '');
    writeFileSync(file, content);
    const report = adapter.reindex();
    expect(report.changed).toEqual([file.slice(root.length + 1)]);
    expect(await adapter.get(records![0]!, scope)).toMatchObject({ text: 'Edited by hand one.' });
    expect(await adapter.get(records![1]!, scope)).toBeNull();
    expect(await adapter.get({ providerKey: 'markdown', providerRecordId: 'hand-added' }, scope)).toMatchObject({ text: 'I prefer handwritten notes.' });
    expect((await adapter.profile(scope)).summary).toContain('I prefer handwritten notes.');
  });

  it('never overwrites a hand edit it has not read: a write reads the changed file first', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'First.' }] });
    const file = recordFile(root);
    writeFileSync(file, readFileSync(file, 'utf8').replace('First.', 'First, edited.'));
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Second.' }] });
    const content = readFileSync(file, 'utf8');
    expect(content).toContain('First, edited.');
    expect(content).toContain('Second.');
  });

  it('creates the index of a new root with an event for the owner and no warning for the caller', async () => {
    const events: string[] = [];
    const adapter = temporary.open({ root: temporary.root(), onEvent: (event) => events.push(event.type === 'index_rebuilt' ? event.reason : event.type) });
    expect(events).toEqual(['the index did not exist']);
    const written = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The first note of a new root.' }] });
    expect(written.warnings ?? []).toEqual([]);
    const found = await adapter.query({ bindingKey, scope, query: 'first note' });
    expect(found.warnings ?? []).toEqual([]);
  });

  it('rebuilds a deleted or corrupted index on open, with an event and a warning', async () => {
    const root = temporary.root();
    const first = temporary.open({ root });
    await first.upsertRecords({ bindingKey, scope, records: [{ text: 'Survives index loss.' }] });
    first.close();
    for (const damage of ['delete', 'corrupt'] as const) {
      const indexPath = join(root, '.memplane/index.sqlite');
      if (damage === 'delete') {
        for (const suffix of ['', '-wal', '-shm']) writeFileSync(`${indexPath}${suffix}`, '');
      } else writeFileSync(indexPath, Buffer.alloc(8192, 7));
      const events: string[] = [];
      const reopened = temporary.open({ root, onEvent: (event) => events.push(event.type === 'index_rebuilt' ? event.reason : event.type) });
      expect(events).toEqual([expect.stringMatching(/could not be read|did not exist|no schema version/)]);
      const found = await reopened.query({ bindingKey, scope, query: 'survives' });
      expect(found.snippets.map((snippet) => snippet.text)).toEqual(['Survives index loss.']);
      expect(found.warnings).toEqual([{ type: 'other', message: expect.stringContaining('The markdown index was rebuilt') }]);
      reopened.close();
    }
  });

  it('rebuilds when neighbourWindows changes, and ranks a turn through its neighbours only with windows', async () => {
    const root = temporary.root();
    const turns = ['Alice: Guess where I went last weekend?', 'Bob: Where?', 'Alice: To the lighthouse museum in Maine.', 'Bob: Nice.'];
    const first = temporary.open({ root });
    await first.upsertRecords({ bindingKey, scope, records: turns.map((text) => ({ text })) });
    const withWindows = await first.query({ bindingKey, scope, query: 'where did she go last weekend' });
    expect(withWindows.snippets.map((snippet) => snippet.text)).toContain('Alice: To the lighthouse museum in Maine.');
    first.close();
    const events: string[] = [];
    const plain = temporary.open({ root, neighbourWindows: false, onEvent: (event) => events.push(event.type === 'index_rebuilt' ? event.reason : event.type) });
    expect(events).toEqual(['neighbourWindows changed to false']);
    const without = await plain.query({ bindingKey, scope, query: 'where did she go last weekend' });
    expect(without.snippets.map((snippet) => snippet.text)).not.toContain('Alice: To the lighthouse museum in Maine.');
  });

  it('ranks a turn through a neighbour written in an earlier batch, in the same window', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Alice: Guess where I went last weekend?' }, { text: 'Bob: Where?' }] });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Alice: To the lighthouse museum in Maine.' }, { text: 'Bob: Nice.' }] });
    const found = await adapter.query({ bindingKey, scope, query: 'where did she go last weekend' });
    expect(found.snippets.map((snippet) => snippet.text)).toContain('Alice: To the lighthouse museum in Maine.');
    adapter.rebuildIndex();
    const rebuilt = await adapter.query({ bindingKey, scope, query: 'where did she go last weekend' });
    expect(rebuilt.snippets.map((snippet) => snippet.text)).toEqual(found.snippets.map((snippet) => snippet.text));
  });

  it('re-indexes after a watched change, debounced', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Watched text.' }] });
    const reindexed = new Promise<string[]>((resolve) => {
      const watcher = adapter.watch({ debounceMs: 20, onReindex: (report) => { watcher.close(); resolve(report.changed); } });
      writeFileSync(recordFile(root), readFileSync(recordFile(root), 'utf8').replace('Watched text.', 'Watched and changed.'));
    });
    expect(await reindexed).toHaveLength(1);
    expect(await adapter.get(records![0]!, scope)).toMatchObject({ text: 'Watched and changed.' });
  });
});
