import type { MemoryWarning } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import recordResponse from './__fixtures__/record-response.json';
import type { ExampleRecord } from './example-api-schemas';
import { readRecordId, toRecordHandle } from './example-handle';
import { findExampleScopeViolation, keepInScope, toSnippet } from './example-record-mapping';
import { fromExampleScope, narrowsBelowCompany, toExampleScope } from './example-scope-mapping';

const record = recordResponse.record as ExampleRecord;

describe('scope mapping', () => {
  it('maps companyId to the tenant and every other field to a label', () => {
    const scope = {
      companyId: 'c',
      agentId: 'a',
      projectId: 'p',
      issueId: 'i',
      runId: 'r',
      subjectId: 's',
      sessionKey: 'k',
      namespace: 'n',
    };
    const mapped = toExampleScope(scope);
    expect(mapped).toEqual({
      tenant: 'c',
      labels: {
        agent_id: 'a',
        project_id: 'p',
        issue_id: 'i',
        run_id: 'r',
        subject_id: 's',
        session_key: 'k',
        namespace: 'n',
      },
    });
    expect(fromExampleScope(mapped.tenant, mapped.labels)).toEqual(scope);
  });

  it('ignores labels it did not write and tells a company scope from a narrower one', () => {
    expect(fromExampleScope('c', { agent_id: 'a', colour: 'blue' })).toEqual({ companyId: 'c', agentId: 'a' });
    expect(narrowsBelowCompany({ companyId: 'c' })).toBe(false);
    expect(narrowsBelowCompany({ companyId: 'c', namespace: 'n' })).toBe(true);
  });
});

describe('handles', () => {
  it('say what kind of id they hold', () => {
    expect(toRecordHandle('rec_1')).toEqual({ providerKey: 'example', providerRecordId: 'record:rec_1' });
    expect(readRecordId(toRecordHandle('rec_1'))).toBe('rec_1');
    expect(readRecordId({ providerKey: 'example', providerRecordId: 'job:rec_1' })).toBeUndefined();
    expect(readRecordId({ providerKey: 'example', providerRecordId: 'record:' })).toBeUndefined();
  });
});

describe('record mapping', () => {
  it('maps an API record to a snippet', () => {
    expect(toSnippet(record, 0.4)).toEqual({
      handle: { providerKey: 'example', providerRecordId: 'record:rec_900020' },
      text: 'Uses metric units.',
      score: 0.4,
      summary: 'Units',
      metadata: { confidence: 0.7, tags: ['units'] },
      source: { kind: 'issue_comment', companyId: 'company-fixture', issueId: 'issue-4', commentId: 'comment-8' },
      scope: { companyId: 'company-fixture', agentId: 'agent-1', projectId: 'project-9' },
      createdAt: '2025-01-01T00:00:20.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
    });
  });

  it('leaves out what the API returns as null', () => {
    const snippet = toSnippet({ ...record, summary: null, metadata: null, source: null });
    expect(Object.keys(snippet).sort()).toEqual(['createdAt', 'handle', 'scope', 'text', 'updatedAt']);
  });

  it('finds records of another tenant, other labels or a foreign source', () => {
    expect(findExampleScopeViolation(record, { companyId: 'company-fixture', agentId: 'agent-1' })).toBeUndefined();
    expect(findExampleScopeViolation(record, { companyId: 'company-other' })).toMatch(/another tenant/);
    expect(findExampleScopeViolation(record, { companyId: 'company-fixture', agentId: 'agent-2' })).toMatch(/labels/);
    const foreignSource = { ...record, source: { kind: 'manual_note', companyId: 'company-other' } };
    expect(findExampleScopeViolation(foreignSource, { companyId: 'company-fixture' })).toMatch(/source/);
  });

  it('keeps the records in scope and warns about each one it drops', () => {
    const warnings: MemoryWarning[] = [];
    const kept = keepInScope(
      [{ record }, { record: { ...record, id: 'rec_x', tenant: 'company-other' } }],
      { companyId: 'company-fixture' },
      warnings,
    );
    expect(kept.map((item) => item.record.id)).toEqual(['rec_900020']);
    expect(warnings).toEqual([
      {
        type: 'scope_violation',
        providerRecordId: 'record:rec_x',
        details: 'the Example API returned a record of another tenant',
      },
    ]);
  });
});
