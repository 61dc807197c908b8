import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backlinksOf, checkTemplate, emptyBacklinkTemplates, fillTemplate, type BacklinkTemplates } from './backlinks';

const origin = 'http://127.0.0.1:4680';
const templates: BacklinkTemplates = {
  ...emptyBacklinkTemplates,
  issue: 'https://paperclip.example/{companyId}/issues/{issueId}',
  comment: 'https://paperclip.example/{companyId}/issues/{issueId}#comment-{commentId}',
  run: '/runs/{runId}',
};

describe('backlinks', () => {
  it('fills the templates of an issue comment, each value percent-encoded', () => {
    expect(backlinksOf({ kind: 'issue_comment', companyId: 'acme', issueId: 'ISS 7', commentId: 'c/42' }, undefined, templates, origin)).toEqual([
      { label: 'issue ISS 7', href: 'https://paperclip.example/acme/issues/ISS%207' },
      { label: 'comment c/42', href: 'https://paperclip.example/acme/issues/ISS%207#comment-c%2F42' },
    ]);
    // A relative template stays on the server's own origin.
    expect(backlinksOf({ kind: 'run', companyId: 'acme', runId: 'run-3' }, undefined, templates, origin)).toEqual([{ label: 'run run-3', href: `${origin}/runs/run-3` }]);
  });

  it('never lets an id leave the path segment it fills, whatever the id (property)', () => {
    // Ids an attacker would pick (dot segments, their encodings, separators) beside arbitrary text.
    const id = fc.oneof(fc.constantFrom('.', '..', '%2e%2e', '.%2e', '..;', '/', '\\', '?x=1', '#top', '//evil.example', '%00'), fc.string({ minLength: 1 }), fc.string({ minLength: 1, unit: 'binary' }));
    fc.assert(
      fc.property(id, id, (companyId, issueId) => {
        const href = fillTemplate(templates.issue, { companyId, issueId }, origin);
        if (['.', '..'].includes(companyId) || ['.', '..'].includes(issueId)) {
          expect(href).toBeUndefined();
          return;
        }
        expect(href).toBeDefined();
        const url = new URL(href as string);
        expect(url.origin).toBe('https://paperclip.example');
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        const segments = url.pathname.split('/');
        expect(segments).toHaveLength(4);
        expect(segments[2]).toBe('issues');
        expect(decodeURIComponent(segments[1] as string)).toBe(companyId);
        expect(decodeURIComponent(segments[3] as string)).toBe(issueId);
      }),
    );
    // A loaded CI machine runs this beside the browser tests.
  }, 30_000);

  it('links nothing for an id that is `.` or `..`, which a URL parser would read as climbing out of the path', () => {
    // Percent-encoding does not help: the URL parser reads %2E%2E as `..` too.
    expect(new URL('https://paperclip.example/%2E%2E/issues/x').pathname).toBe('/issues/x');
    expect(fillTemplate(templates.issue, { companyId: '..', issueId: 'ISS-1' }, origin)).toBeUndefined();
    expect(fillTemplate(templates.issue, { companyId: 'acme', issueId: '.' }, origin)).toBeUndefined();
    expect(fillTemplate(templates.issue, { companyId: 'acme', issueId: '...' }, origin)).toBe('https://paperclip.example/acme/issues/...');
  });

  it('refuses templates that are not http(s) or a path of the server, and links nothing with them', () => {
    for (const template of ['javascript:alert(1)//{issueId}', 'data:text/html,{issueId}', '//evil.example/{issueId}', 'paperclip/{issueId}', 'https://x/{secret}']) {
      expect(checkTemplate(template), template).toBeDefined();
      expect(fillTemplate(template, { issueId: 'ISS-1' }, origin), template).toBeUndefined();
    }
    expect(checkTemplate('')).toBeUndefined();
  });

  it('links nothing when a field of the template is unknown for the source, or no template is set', () => {
    expect(backlinksOf({ kind: 'issue', companyId: 'acme' }, undefined, templates, origin)).toEqual([]);
    expect(backlinksOf({ kind: 'issue', companyId: 'acme', issueId: 'ISS-1' }, undefined, emptyBacklinkTemplates, origin)).toEqual([]);
    expect(backlinksOf(undefined, undefined, templates, origin)).toEqual([]);
  });

  it('links an external document only when its reference is an http(s) URL', () => {
    const external = (externalRef: string) => backlinksOf({ kind: 'external_document', companyId: 'acme', externalRef }, undefined, templates, origin);
    expect(external('https://docs.example/a?b=1')).toEqual([{ label: 'external document', href: 'https://docs.example/a?b=1' }]);
    expect(external('javascript:alert(1)')).toEqual([]);
    expect(external('JaVaScRiPt:alert(1)')).toEqual([]);
    expect(external('doc-17')).toEqual([]);
  });
});
