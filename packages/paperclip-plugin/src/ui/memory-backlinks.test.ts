import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backlinksOf } from './memory-backlinks';

describe('backlinks of a memory source', () => {
  it('link the issue, and the comment or document on it', () => {
    expect(backlinksOf({ kind: 'issue_comment', issueId: 'iss-1', commentId: 'c-1', runId: 'r-1' })).toEqual([
      { label: 'issue', path: '/issues/iss-1' },
      { label: 'comment', path: '/issues/iss-1#comment-c-1' },
    ]);
    expect(backlinksOf({ kind: 'issue_document', issueId: 'iss-1', documentKey: 'plan' })).toEqual([
      { label: 'issue', path: '/issues/iss-1' },
      { label: 'document plan', path: '/issues/iss-1#document-plan' },
    ]);
    expect(backlinksOf({ kind: 'manual_note' })).toEqual([]);
    expect(backlinksOf(undefined)).toEqual([]);
  });

  it('an id can never leave the issue path: no slash, dot segment, query, scheme or second fragment survives (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (issueId, commentId) => {
        const [issue, comment] = backlinksOf({ kind: 'issue_comment', issueId, commentId });
        expect(issue?.path.startsWith('/issues/')).toBe(true);
        const issueSegment = issue?.path.slice('/issues/'.length) ?? '';
        expect(issueSegment).not.toMatch(/[/?#]/);
        expect(['.', '..']).not.toContain(issueSegment);
        expect(decodeURIComponent(issueSegment)).toBe(issueId);
        expect(comment?.path.split('#')).toHaveLength(2);
      }),
    );
    expect(backlinksOf({ kind: 'issue', issueId: '../../admin?x=1#y' })[0]?.path).toBe('/issues/..%2F..%2Fadmin%3Fx%3D1%23y');
    expect(backlinksOf({ kind: 'issue', issueId: '..' })[0]?.path).toBe('/issues/%2E%2E');
    expect(backlinksOf({ kind: 'issue_document', issueId: 'i', documentKey: '.' })[1]?.path).toBe('/issues/i#document-%2E');
  });
});
