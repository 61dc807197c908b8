import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryValidationError, type MemoryScope, type MemorySnippet, type MemorySourceRef } from '@memplane/core';
import { parseMarkdownFile } from './markdown-section-parser';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const temporary = useTemporaryRoots();

/** Characters that are line breaks to some reader but not to JSON or to `split('\n')`. */
const breakers = ['\u2028', '\u2029', '\u0085', '\u000b', '\u000c', '\r', '\r\n', '\n', '\t', '\u00a0', '\ufeff'];

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : [];
  });
}

function comparable(snippet: MemorySnippet | null) {
  if (snippet === null) return null;
  return { text: snippet.text, summary: snippet.summary, metadata: snippet.metadata, source: snippet.source, scope: snippet.scope };
}

describe('markdown round trip of every value the contract accepts', () => {
  it('keeps U+2028, U+2029, NEL, vertical tab and form feed in text, summary, metadata, source and scope', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const odd = breakers.join('');
    const scope: MemoryScope = { companyId: `acme${'\u2028'}`, agentId: `planner${'\u2029'}x`, namespace: `n${'\u0085'}s` };
    const source: MemorySourceRef = { kind: 'run', companyId: scope.companyId, runId: `run${odd}`, externalRef: `ref${'\u2028'}` };
    const written = await adapter.upsertRecords({
      bindingKey,
      scope,
      source,
      records: [{ text: `Line one${odd}line two.`, summary: `sum${odd}mary`, metadata: { [`key${'\u2029'}`]: `value${odd}`, list: ['\u2028', 1] } }],
    });
    const handle = written.records![0]!;
    const before = comparable(await adapter.get(handle, scope));
    expect(before).toMatchObject({ text: `Line one${odd}line two.`, summary: `sum${odd}mary`, source, scope });
    adapter.rebuildIndex();
    expect(comparable(await adapter.get(handle, scope))).toEqual(before);
    // The markdown itself holds no raw Unicode line separator outside the fenced text.
    for (const file of markdownFiles(join(root, 'companies'))) {
      const fields = readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('- '));
      for (const line of fields) expect(line).not.toMatch(/[\u2028\u2029\u0085]/);
    }
    expect((await adapter.list({ bindingKey, scope })).items.map((item) => item.handle)).toEqual([handle]);
    const corrected = await adapter.correct(handle, { text: `Corrected${'\u2028'}text.` }, scope);
    adapter.rebuildIndex();
    expect(await adapter.get(corrected.record, scope)).toMatchObject({ text: `Corrected${'\u2028'}text.` });
    await adapter.forget([corrected.record], scope);
    for (const file of markdownFiles(join(root, 'companies'))) expect(readFileSync(file, 'utf8')).not.toContain('Line one');
  });

  it('refuses lone surrogates and oversized metadata with a validation error naming the field, and writes nothing', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const scope = { companyId: 'acme' };
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['records.0.text', () => adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'half \ud800 pair' }] })],
      ['records.0.summary', () => adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'ok', summary: '\udfff' }] })],
      ['records.0.metadata.note', () => adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'ok', metadata: { note: 'x\udbff' } }] })],
      ['scope.agentId', () => adapter.upsertRecords({ bindingKey, scope: { companyId: 'acme', agentId: '\udc00' }, records: [{ text: 'ok' }] })],
      ['records.0.metadata', () => adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'ok', metadata: { blob: 'x'.repeat(10_000_000) } }] })],
    ];
    for (const [field, attempt] of attempts) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(MemoryValidationError.isInstance(error), field).toBe(true);
      expect((error as MemoryValidationError).field).toBe(field);
    }
    expect(existsSync(join(root, 'companies'))).toBe(false);
  });

  it('reads fields that hold raw U+2028 and U+2029, as files written before the escaping hold them', () => {
    const content = [
      '# Memory records',
      '',
      '- scope: {"agentId":"a\u2028b","companyId":"acme"}',
      '',
      '## Memory m_1',
      '',
      '- kind: note',
      '- summary: "one\u2029two"',
      '- metadata: {"k":"v\u2028w"}',
      '',
      '~~~text',
      'Text\u2028with separators.',
      '~~~',
      '',
    ].join('\n');
    const parsed = parseMarkdownFile(content, '2026-01-01T00:00:00.000Z');
    expect(parsed.problems).toEqual([]);
    expect(parsed.sections[0]).toMatchObject({ scope: { companyId: 'acme', agentId: 'a\u2028b' }, summary: 'one\u2029two', metadata: { k: 'v\u2028w' }, text: 'Text\u2028with separators.' });
  });

  it('keeps empty summaries, empty reasons and empty metadata strings', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const scope = { companyId: 'acme' };
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'An empty summary.', summary: '', metadata: { '': '' } }] });
    adapter.rebuildIndex();
    expect(await adapter.get(records![0]!, scope)).toMatchObject({ summary: '', metadata: { '': '' } });
  });

  it('round-trips arbitrary valid records through write, rebuild and read (property)', async () => {
    const root = temporary.root();
    const adapter = temporary.open({ root });
    const unicode = fc.string({ unit: fc.oneof(fc.constantFrom(...breakers, '~', '`', '#', '-', ' ', '"', '\\'), fc.constantFrom('a', 'Z', '9'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 });
    const identifier = unicode.filter((value) => /^[^\u0000-\u001f\u007f]{1,256}$/.test(value));
    const text = unicode.filter((value) => value.trim() !== '');
    const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, unicode, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(unicode, tie('value'), { maxKeys: 3 })),
    })).value;
    const record = fc.record(
      { text, summary: unicode, metadata: fc.dictionary(unicode.filter((key) => key !== '__proto__'), json, { maxKeys: 4 }) },
      { requiredKeys: ['text'] },
    );
    const scope = fc.record({ companyId: identifier, agentId: identifier, namespace: identifier }, { requiredKeys: ['companyId'] });
    const source = fc.record({ externalRef: unicode.filter((value) => value.length >= 1), documentKey: unicode.filter((value) => value.length >= 1) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(scope, fc.option(source, { nil: undefined }), fc.array(record, { minLength: 1, maxLength: 5 }), async (scopeValue, sourceValue, records) => {
        const sourceRef: MemorySourceRef | undefined = sourceValue === undefined ? undefined : { kind: 'manual_note', companyId: scopeValue.companyId, ...sourceValue };
        const request = { bindingKey, scope: scopeValue as MemoryScope, records, ...(sourceRef === undefined ? {} : { source: sourceRef }) };
        const { records: handles } = await adapter.upsertRecords(request);
        const before = await Promise.all(handles!.map(async (handle) => comparable(await adapter.get(handle, request.scope))));
        adapter.rebuildIndex();
        const after = await Promise.all(handles!.map(async (handle) => comparable(await adapter.get(handle, request.scope))));
        expect(after).toEqual(before);
        for (const [index, handle] of handles!.entries()) {
          const found = after[index];
          expect(found, `record ${handle.providerRecordId}`).not.toBeNull();
          // The last write of a text wins a duplicate merge; the text is always the one written.
          expect(records.some((entry) => entry.text === found?.text)).toBe(true);
        }
        const last = new Map(records.map((entry) => [entry.text, entry]));
        for (const found of after) {
          const written = last.get(found!.text)!;
          if (written.summary !== undefined) expect(found!.summary).toBe(written.summary);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('round-trips corrections and captured records through a rebuild (property)', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const unicode = fc.string({ unit: fc.oneof(fc.constantFrom(...breakers, '~', '`', '#', '- ', '"'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 30 });
    const text = unicode.filter((value) => value.trim() !== '');
    const metadata = fc.dictionary(unicode.filter((key) => key !== '__proto__'), fc.oneof(unicode, fc.integer(), fc.constant(null)), { maxKeys: 3 });
    const scope = { companyId: 'acme\u2028co', agentId: 'a\u0085b' };
    await fc.assert(
      fc.asyncProperty(text, text, fc.option(unicode, { nil: undefined }), fc.option(metadata, { nil: undefined }), unicode, async (first, corrected, summary, patchMetadata, reason) => {
        const written = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: first }] });
        const patch = { text: corrected, reason, ...(summary === undefined ? {} : { summary }), ...(patchMetadata === undefined ? {} : { metadata: patchMetadata }) };
        const result = await adapter.correct(written.records![0]!, patch, scope);
        const captured = await adapter.capture({ bindingKey, scope, mode: 'capture_record', source: { kind: 'manual_note', companyId: scope.companyId, externalRef: `r${reason}` }, payload: { text: `${first}${corrected}` }, ...(patchMetadata === undefined ? {} : { metadata: patchMetadata }) });
        const handles = [result.record, result.supersedes!, captured.records![0]!];
        const before = await Promise.all(handles.map(async (handle) => comparable(await adapter.get(handle, scope))));
        expect(before[0]).toMatchObject({ text: corrected, ...(summary === undefined ? {} : { summary }) });
        adapter.rebuildIndex();
        expect(await Promise.all(handles.map(async (handle) => comparable(await adapter.get(handle, scope))))).toEqual(before);
        await adapter.forget([result.record, captured.records![0]!], scope);
      }),
      { numRuns: 40 },
    );
  });
});
