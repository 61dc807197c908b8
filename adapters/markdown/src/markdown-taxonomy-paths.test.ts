import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryRecordHandle } from '@memplane/core';
import { useTemporaryRoots } from './testing/temporary-root';

const bindingKey = 'test';
const scope = { companyId: 'acme', agentId: 'planner' };
const temporary = useTemporaryRoots();

function allMarkdown(folder: string): string {
  return readdirSync(folder)
    .map((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? allMarkdown(path) : name.endsWith('.md') ? readFileSync(path, 'utf8') : '';
    })
    .join('\n');
}

/** The status and PII risk fields of one record's section, read from the markdown itself. */
function reviewOf(root: string, handle: MemoryRecordHandle): { status: string; piiRisk: number } {
  const content = allMarkdown(join(root, 'companies'));
  const start = content.indexOf(`## Memory ${handle.providerRecordId}`);
  expect(start, 'section of the record').toBeGreaterThanOrEqual(0);
  const section = content.slice(start, content.indexOf('~~~', start));
  return {
    status: /- status: (\w+)/.exec(section)?.[1] as string,
    piiRisk: Number(/- pii_risk: (\d)/.exec(section)?.[1]),
  };
}

const hostileCorrections: Array<[string, string]> = [
  ['an SSN', 'Deploys are approved by 123-45-6789.'],
  ['a card number', 'Deploys are billed to 4111 1111 1111 1111.'],
  ['an email', 'Deploys are approved by ops-lead@vendor.example.'],
];

describe('markdown taxonomy on every write path', () => {
  it.each(hostileCorrections)('correct to text with %s goes to review with pii_risk 2', async (_name, text) => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Deploys are approved by the lead.' }] });
    expect(reviewOf(adapter.root, records![0]!)).toEqual({ status: 'approved', piiRisk: 0 });
    const corrected = await adapter.correct(records![0]!, { text }, scope);
    expect(reviewOf(adapter.root, corrected.record)).toEqual({ status: 'pending', piiRisk: 2 });
    expect((await adapter.query({ bindingKey, scope, query: 'deploys approved' })).snippets).toEqual([]);
  });

  it('correct of the summary alone to PII goes to review', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.' }] });
    const corrected = await adapter.correct(records![0]!, { summary: 'Reach them at billing@vendor.example' }, scope);
    expect(reviewOf(adapter.root, corrected.record)).toEqual({ status: 'pending', piiRisk: 2 });
  });

  it('correct of metadata to PII goes to review', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.' }] });
    const corrected = await adapter.correct(records![0]!, { metadata: { owner: { phone: '+1 415 555 0100' } } }, scope);
    expect(reviewOf(adapter.root, corrected.record)).toEqual({ status: 'pending', piiRisk: 2 });
  });

  it('a correction without PII keeps an approved record approved', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.' }] });
    const corrected = await adapter.correct(records![0]!, { text: 'The vendor handles invoices and refunds.' }, scope);
    expect(reviewOf(adapter.root, corrected.record)).toEqual({ status: 'approved', piiRisk: 0 });
  });

  it('a duplicate write does not merge a PII summary into an approved record without review', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.' }] });
    const again = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.', summary: 'SSN 123-45-6789 on file' }] });
    expect(again.records).toEqual(records);
    expect(reviewOf(adapter.root, records![0]!)).toEqual({ status: 'pending', piiRisk: 2 });
    expect((await adapter.query({ bindingKey, scope, query: 'vendor invoices' })).snippets).toEqual([]);
  });

  it('a duplicate write does not merge PII metadata into an approved record without review', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.' }] });
    await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'The vendor handles invoices.', metadata: { contact: 'billing@vendor.example' } }] });
    expect(reviewOf(adapter.root, records![0]!)).toEqual({ status: 'pending', piiRisk: 2 });
  });

  it('scans metadata strings and keys for PII on insert', async () => {
    const adapter = temporary.open({ root: temporary.root() });
    const { records } = await adapter.upsertRecords({
      bindingKey,
      scope,
      records: [
        { text: 'The vendor handles invoices.', metadata: { notes: ['call', { card: '4111-1111-1111-1111' }] } },
        { text: 'The vendor handles refunds.', metadata: { 'ops-lead@vendor.example': true } },
        { text: 'The vendor handles returns.', metadata: { team: 'billing' } },
      ],
    });
    expect(records!.map((handle) => reviewOf(adapter.root, handle))).toEqual([
      { status: 'pending', piiRisk: 2 },
      { status: 'pending', piiRisk: 2 },
      { status: 'approved', piiRisk: 0 },
    ]);
    // A rebuild derives the same review state from the markdown.
    adapter.rebuildIndex();
    expect((await adapter.query({ bindingKey, scope, query: 'vendor handles' })).snippets.map((snippet) => snippet.text)).toEqual(['The vendor handles returns.']);
  });

  it('a rewritten expired todo is visible, not merged into the hidden expired record', async () => {
    let now = '2026-11-22T10:00:00.000Z';
    const adapter = temporary.open({ root: temporary.root(), now: () => new Date(now) });
    const text = 'Need to renew the signing certificate.';
    const first = await adapter.upsertRecords({ bindingKey, scope, records: [{ text, metadata: { kind: 'todo', expires_at: '2026-11-23T00:00:00Z' } }] });
    now = '2026-11-24T10:00:00.000Z';
    expect((await adapter.query({ bindingKey, scope, query: 'signing certificate' })).snippets).toEqual([]);
    const again = await adapter.upsertRecords({ bindingKey, scope, records: [{ text, metadata: { kind: 'todo', expires_at: '2026-12-01T00:00:00Z' } }] });
    expect(again.records![0]).not.toEqual(first.records![0]);
    expect((await adapter.query({ bindingKey, scope, query: 'signing certificate' })).snippets.map((snippet) => snippet.handle)).toEqual(again.records);
    // A rewrite without a new expiry is visible as well.
    const third = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Need to rotate the deploy keys.', metadata: { kind: 'todo', expires_at: '2026-11-24T11:00:00Z' } }] });
    now = '2026-11-25T00:00:00.000Z';
    const fourth = await adapter.upsertRecords({ bindingKey, scope, records: [{ text: 'Need to rotate the deploy keys.', metadata: { kind: 'todo' } }] });
    expect(fourth.records![0]).not.toEqual(third.records![0]);
    const found = (await adapter.query({ bindingKey, scope, query: 'rotate deploy keys' })).snippets.map((snippet) => snippet.handle);
    expect(found).toContainEqual(fourth.records![0]);
    expect(found).not.toContainEqual(third.records![0]);
  });
});
