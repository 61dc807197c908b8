import { describe, expect, it } from 'vitest';
import { namespacePattern, actorIdPattern, sessionIdPattern } from './testing/agentcore-fake-validation';
import { encodeScope, hashedScopeWarnings, toActorId, toNamespace, toScopeFilters, toScopeMetadata, toSessionId } from './agentcore-scope-mapping';
import { findStoredScopeViolation, parseActorId, parseNamespace, toSnippetScope } from './agentcore-stored-scope';

describe('namespaces', () => {
  it('are /c/{company}/ or /c/{company}/a/{agent}/, always with a trailing slash', () => {
    expect(toNamespace(encodeScope({ companyId: 'acme' }))).toBe('/c/acme/');
    expect(toNamespace(encodeScope({ companyId: 'acme', agentId: 'planner', projectId: 'p1' }))).toBe('/c/acme/a/planner/');
  });

  it('never make one company a prefix of another, whatever the ids hold', () => {
    const pairs: Array<[string, string]> = [['c1', 'c10'], ['acme', 'acme/a/x'], ['a', 'a_2F'], ['x', 'x/']];
    for (const [first, second] of pairs) {
      const one = toNamespace(encodeScope({ companyId: first }));
      const other = toNamespace(encodeScope({ companyId: second }));
      expect(other.startsWith(one), `${other} starts with ${one}`).toBe(false);
      expect(one.startsWith(other), `${one} starts with ${other}`).toBe(false);
    }
  });

  it('satisfy the AgentCore namespace, actor and session patterns even for hostile or long ids', () => {
    for (const companyId of ['acme', 'Grüße/../*:x', 'ü'.repeat(200)]) {
      const encoded = encodeScope({ companyId, agentId: 'agent: one/two', sessionKey: 'thread #7', runId: 'run 1' });
      expect(toNamespace(encoded)).toMatch(namespacePattern);
      expect(toNamespace(encoded).length).toBeLessThanOrEqual(1024);
      expect(toActorId(encoded)).toMatch(actorIdPattern);
      expect(toActorId(encoded).length).toBeLessThanOrEqual(255);
      expect(toSessionId(encoded)).toMatch(sessionIdPattern);
      expect(toSessionId(encoded)?.length).toBeLessThanOrEqual(100);
    }
  });

  it('parse back into their company and agent segments, deeper strategy paths included', () => {
    expect(parseNamespace('/c/acme/a/planner/')).toEqual({ companySegment: 'acme', agentSegment: 'planner' });
    expect(parseNamespace('/c/acme/a/planner/preferences/')).toEqual({ companySegment: 'acme', agentSegment: 'planner' });
    expect(parseNamespace('/c/acme/')).toEqual({ companySegment: 'acme', agentSegment: undefined });
    expect(parseNamespace('/users/bob/')).toBeUndefined();
    expect(parseNamespace('/c/acme')).toBeUndefined();
    expect(parseActorId('c/acme/a/planner')).toEqual({ companySegment: 'acme', agentSegment: 'planner' });
    expect(parseActorId('bob')).toBeUndefined();
  });
});

describe('actor and session', () => {
  it('maps company and agent to the actor, and sessionKey (else runId) to the session', () => {
    expect(toActorId(encodeScope({ companyId: 'acme' }))).toBe('c/acme');
    expect(toActorId(encodeScope({ companyId: 'acme', agentId: 'planner' }))).toBe('c/acme/a/planner');
    expect(toSessionId(encodeScope({ companyId: 'acme', sessionKey: 'thread-7', runId: 'run-1' }))).toBe('k-thread-7');
    expect(toSessionId(encodeScope({ companyId: 'acme', runId: 'run-1' }))).toBe('r-run-1');
    expect(toSessionId(encodeScope({ companyId: 'acme' }))).toBeUndefined();
  });
});

describe('scope metadata', () => {
  const scope = { companyId: 'acme', agentId: 'planner', projectId: 'p 1', issueId: 'i1', runId: 'r1', subjectId: 's1', sessionKey: 'k1', namespace: 'n1' };

  it('stores every field below the agent as an encoded metadata value and filters on it with EQUALS_TO', () => {
    const encoded = encodeScope(scope);
    expect(toScopeMetadata(encoded)).toEqual({
      'memplane.projectId': { stringValue: 'p_201' },
      'memplane.issueId': { stringValue: 'i1' },
      'memplane.runId': { stringValue: 'r1' },
      'memplane.subjectId': { stringValue: 's1' },
      'memplane.sessionKey': { stringValue: 'k1' },
      'memplane.namespace': { stringValue: 'n1' },
      'memplane.sessionKey.runId': { stringValue: 'k1.r1' },
    });
    expect(toScopeFilters(encodeScope({ companyId: 'acme', projectId: 'p 1' }))).toEqual([
      { left: { metadataKey: 'memplane.projectId' }, operator: 'EQUALS_TO', right: { metadataValue: { stringValue: 'p_201' } } },
    ]);
    expect(toScopeFilters(encodeScope({ companyId: 'acme', agentId: 'planner' }))).toEqual([]);
  });

  it('matches a stored scope only when every requested field is equal, and rebuilds the record scope', () => {
    const encoded = encodeScope(scope);
    const stored = { companySegment: 'acme', agentSegment: 'planner', metadata: toScopeMetadata(encoded) };
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme' }))).toBeUndefined();
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme', projectId: 'p 1' }))).toBeUndefined();
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme', projectId: 'p 2' }))).toMatch(/projectId/);
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme', agentId: 'other' }))).toMatch(/another agent/);
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme1' }))).toMatch(/another company/);
    expect(toSnippetScope(stored, { companyId: 'acme' })).toEqual(scope);
  });

  it('warns when a field is stored as a digest, and returns it only when the request names it', () => {
    const long = 'ü'.repeat(60);
    const encoded = encodeScope({ companyId: 'acme', projectId: long });
    expect(hashedScopeWarnings({ companyId: 'acme', projectId: long }, encoded)).toEqual([
      expect.objectContaining({ type: 'compatibility', feature: 'scope.projectId' }),
    ]);
    const stored = { companySegment: 'acme', agentSegment: undefined, metadata: toScopeMetadata(encoded) };
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme', projectId: long }))).toBeUndefined();
    expect(findStoredScopeViolation(stored, encodeScope({ companyId: 'acme', projectId: `${long}x` }))).toBeDefined();
    expect(toSnippetScope(stored, { companyId: 'acme', projectId: long })).toEqual({ companyId: 'acme', projectId: long });
    expect(toSnippetScope(stored, { companyId: 'acme' })).toEqual({ companyId: 'acme' });
  });
});
