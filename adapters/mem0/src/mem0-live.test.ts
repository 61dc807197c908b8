import { randomBytes } from 'node:crypto';
import { finalExtractionJobStatuses, type MemoryRecordHandle } from '@memplane/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMem0Adapter } from './mem0-adapter';

/**
 * The live tier: the same operations against the real mem0 platform. It runs only when
 * `MEM0_API_KEY` is set (and `MEM0_BASE_URL`, optionally, for another deployment); otherwise
 * the whole block is reported as skipped with the reason in its title. Every record it
 * writes is under a fresh company id and is forgotten at the end. Beside the basics it walks
 * the paths the fake cannot settle: a profile read for an id holding `/`, correct, metadata
 * filters (scalar and digest-matched), a repeated upsert under dedup, forget then get, and an
 * extraction job to `succeeded`.
 */
const apiKey = process.env.MEM0_API_KEY;
const live = apiKey !== undefined && apiKey.trim() !== '';
const title = live ? 'live mem0 platform' : 'live mem0 platform (skipped: MEM0_API_KEY is not set)';

describe.skipIf(!live)(title, () => {
  const adapter = live ? createMem0Adapter({ apiKey, ...(process.env.MEM0_BASE_URL ? { baseURL: process.env.MEM0_BASE_URL } : {}), timeoutMs: 60_000 }) : undefined;
  // A company id with `/`: the entity ids in profile paths must survive a router that decodes.
  const scope = { companyId: `memplane-live/${randomBytes(4).toString('hex')}`, agentId: 'live-agent' };
  const written: MemoryRecordHandle[] = [];

  afterAll(async () => {
    if (adapter !== undefined && written.length > 0) await adapter.forget(written, scope);
  });

  it('writes, reads, lists and queries a verbatim record', { timeout: 120_000 }, async () => {
    if (adapter === undefined) return;
    const marker = `mk${randomBytes(4).toString('hex')}`;
    const result = await adapter.upsertRecords({ bindingKey: 'live', scope, source: { kind: 'manual_note', companyId: scope.companyId }, records: [{ text: `Live check ${marker}: the deploy window is Tuesday.`, metadata: { marker } }] });
    written.push(...(result.records ?? []));
    expect(written).toHaveLength(1);
    const snippet = await adapter.get(written[0] as MemoryRecordHandle, scope);
    expect(snippet?.metadata).toEqual({ marker });
    expect((await adapter.list({ bindingKey: 'live', scope })).items.map((item) => item.text)).toContain(snippet?.text);
    expect(await adapter.get(written[0] as MemoryRecordHandle, { companyId: `${scope.companyId}-other` })).toBeNull();
    let found = false;
    for (let attempt = 0; attempt < 10 && !found; attempt += 1) {
      found = (await adapter.query({ bindingKey: 'live', scope, query: `deploy window ${marker}` })).snippets.some((item) => item.text.includes(marker));
    }
    expect(found).toBe(true);
  });

  it('captures residue and follows its extraction job to a final status', { timeout: 180_000 }, async () => {
    if (adapter === undefined) return;
    const { jobs } = await adapter.capture({ bindingKey: 'live', scope, source: { kind: 'manual_note', companyId: scope.companyId }, payload: { text: 'I prefer green tea and I deploy on Tuesdays.' } });
    const job = jobs?.[0];
    expect(job?.status).toBe('queued');
    let status = job?.status;
    for (let poll = 0; poll < 60 && status !== undefined && !finalExtractionJobStatuses.includes(status); poll += 1) {
      status = (await adapter.getExtractionJob(job?.providerJobId ?? '', scope)).job?.status;
    }
    expect(status).toBe('succeeded');
    written.push(...(await adapter.list({ bindingKey: 'live', scope, limit: 200 })).items.map((item) => item.handle));
  });

  it('corrects a record, filters on scalar and structured metadata, and forgets then reads null', { timeout: 120_000 }, async () => {
    if (adapter === undefined) return;
    const marker = `mk${randomBytes(4).toString('hex')}`;
    const result = await adapter.upsertRecords({ bindingKey: 'live', scope, records: [{ text: `Live ${marker}: standups are at nine.`, metadata: { marker, tags: ['a', 'b'] } }] });
    const [handle] = result.records ?? [];
    if (handle === undefined) throw new TypeError('a handle was expected');
    written.push(handle);
    await adapter.correct(handle, { text: `Live ${marker}: standups are at ten.`, metadata: { tags: ['a'] }, reason: 'moved' }, scope);
    expect(await adapter.get(handle, scope)).toMatchObject({ text: `Live ${marker}: standups are at ten.`, metadata: { marker, tags: ['a'] } });
    expect((await adapter.list({ bindingKey: 'live', scope, metadataFilter: { marker } })).items.map((item) => item.handle)).toEqual([handle]);
    expect((await adapter.list({ bindingKey: 'live', scope, metadataFilter: { tags: ['a'] } })).items.map((item) => item.handle)).toContainEqual(handle);
    expect((await adapter.list({ bindingKey: 'live', scope, metadataFilter: { tags: ['a', 'b'] } })).items.map((item) => item.handle)).not.toContainEqual(handle);
    await adapter.forget([handle], scope);
    let after = await adapter.get(handle, scope);
    for (let attempt = 0; attempt < 10 && after !== null; attempt += 1) after = await adapter.get(handle, scope);
    expect(after).toBeNull();
  });

  it('repeats an upsert without failing or storing twice, and keeps the same text under two projects apart', { timeout: 120_000 }, async () => {
    if (adapter === undefined) return;
    const text = `Live dedup ${randomBytes(4).toString('hex')}: the release train leaves on Thursday.`;
    const request = { bindingKey: 'live', scope: { ...scope, projectId: 'apollo' }, records: [{ text }] };
    const first = await adapter.upsertRecords(request);
    const second = await adapter.upsertRecords(request);
    written.push(...(first.records ?? []), ...(second.records ?? []));
    expect(second.failures).toBeUndefined();
    // Idempotent under mem0's direct-import dedup: the repeat names the memory the first wrote.
    expect(second.records).toEqual(first.records);
    const other = await adapter.upsertRecords({ ...request, scope: { ...scope, projectId: 'gemini' } });
    written.push(...(other.records ?? []));
    expect(other.records?.[0]).not.toEqual(first.records?.[0]);
    expect((await adapter.get(other.records![0]!, scope))?.scope?.projectId).toBe('gemini');
  });

  it('reads the profile of a subject, known or not, without an error', { timeout: 120_000 }, async () => {
    if (adapter === undefined) return;
    const subjectScope = { ...scope, subjectId: `alice/${randomBytes(2).toString('hex')}` };
    const unknown = await adapter.profile(subjectScope);
    expect(unknown.summary).toBe('');
    const result = await adapter.upsertRecords({ bindingKey: 'live', scope: subjectScope, records: [{ text: 'Alice prefers small pull requests.' }] });
    written.push(...(result.records ?? []));
    const known = await adapter.profile(subjectScope);
    expect(typeof known.summary).toBe('string');
  });
});
