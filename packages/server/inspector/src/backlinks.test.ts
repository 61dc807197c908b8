import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BacklinkTemplateError, backlinksOf, checkTemplate, emptyBacklinkTemplates, fillTemplate, parseBacklinkTemplates, readBacklinkTemplates, type BacklinkTemplates } from './backlinks';

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
      expect(checkTemplate(template, origin), template).toBeDefined();
      expect(fillTemplate(template, { issueId: 'ISS-1' }, origin), template).toBeUndefined();
    }
    expect(checkTemplate('', origin)).toBeUndefined();
  });

  // Each of these reaches another origin when a URL parser resolves it on the server's page:
  // browsers drop tabs and line breaks and read `\` as `/`, so `/\evil.example` is `//evil.example`.
  const offOrigin = [
    '/\\evil.example/{issueId}',
    '/\\\\evil/{issueId}',
    '\\/evil.example/{issueId}',
    '//evil.example/{issueId}',
    '/\t/evil.example/{issueId}',
    '/\n/evil.example/{issueId}',
    '/\r\n/evil.example/{issueId}',
    '\t//evil.example/{issueId}',
    ' //evil.example/{issueId}',
    '/\u3000/evil.example/{issueId}',
    '/\u2028/evil.example/{issueId}',
    'javascript:alert(1)//{issueId}',
    'JaVaScRiPt:alert(1)//{issueId}',
    'data:text/html,<script>alert(1)</script>{issueId}',
    'http:/\\evil.example/{issueId}',
    'https:\\\\evil.example/{issueId}',
    'https:evil.example/{issueId}',
    // An absolute template's host is fixed text: no user name trick, no percent-encoded host, no field in the host.
    'https://paperclip.example@evil.example/{issueId}',
    'https://paperclip.example%2Eevil.example/{issueId}',
    'https://evil%2Eexample/{issueId}',
    'https://{companyId}.paperclip.example/issues/{issueId}',
    'https://paperclip.example{companyId}/issues/{issueId}',
    'https://paperclip.example:{issueId}/',
    'https:///{issueId}',
  ];

  it('refuses at config time every template that resolves to another origin, naming the setting', () => {
    for (const template of offOrigin) {
      expect(checkTemplate(template, origin), JSON.stringify(template)).toBeDefined();
      const refused = (() => {
        try {
          parseBacklinkTemplates({ ...emptyBacklinkTemplates, comment: template }, origin);
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refused, JSON.stringify(template)).toBeInstanceOf(BacklinkTemplateError);
      expect(refused).toMatchObject({ setting: 'comment', message: expect.stringMatching(/^Comment link template \(backlinks\.comment\): /) });
    }
    expect(parseBacklinkTemplates({ issue: ' /issues/{issueId} ', run: 'https://paperclip.example/runs/{runId}' }, origin)).toEqual({
      ...emptyBacklinkTemplates,
      issue: '/issues/{issueId}',
      run: 'https://paperclip.example/runs/{runId}',
    });
    expect(() => parseBacklinkTemplates({ run: 42 }, origin)).toThrow(BacklinkTemplateError);
  });

  it('renders no link from a template that resolves to another origin, however it was stored', () => {
    const source = { kind: 'issue', companyId: 'acme', issueId: 'ISS-1' } as const;
    for (const template of offOrigin) {
      expect(fillTemplate(template, { companyId: 'acme', issueId: 'ISS-1' }, origin), JSON.stringify(template)).toBeUndefined();
      expect(backlinksOf(source, undefined, { ...emptyBacklinkTemplates, issue: template }, origin), JSON.stringify(template)).toEqual([]);
    }
    // Templates an earlier inspector accepted and kept in this browser are dropped when read back.
    const stored = JSON.stringify({ issue: '/\\evil.example/{issueId}', run: '/runs/{runId}', comment: '/\t/evil.example/{commentId}' });
    expect(readBacklinkTemplates({ getItem: () => stored }, origin)).toEqual({ ...emptyBacklinkTemplates, run: '/runs/{runId}' });
  });

  it('keeps percent-encoded slashes and backslashes of a path on the server, and encodes every value that tries to break out', () => {
    for (const template of ['/%2F%2Fevil.example/{issueId}', '/%5Cevil.example/{issueId}', '/%5C%5Cevil/{issueId}', '/%09/evil.example/{issueId}', '/.%2E/%2F/{issueId}']) {
      expect(checkTemplate(template, origin), template).toBeUndefined();
      expect(new URL(fillTemplate(template, { issueId: 'x' }, origin)!).origin, template).toBe(origin);
    }
    for (const issueId of ['//evil.example', '@evil.example', '../', '../../admin', '/\\evil.example', '\\\\evil', '\t//evil.example', 'javascript:alert(1)', '%2F%2Fevil', ':@evil.example', '?next=//evil', '#//evil']) {
      const relative = fillTemplate('/{issueId}', { issueId }, origin);
      expect(relative, issueId).toBeDefined();
      expect(new URL(relative!).origin, issueId).toBe(origin);
      expect(decodeURIComponent(new URL(relative!).pathname.slice(1)), issueId).toBe(issueId);
      const absolute = fillTemplate('https://paperclip.example/{issueId}', { issueId }, origin);
      expect(new URL(absolute!).origin, issueId).toBe('https://paperclip.example');
      expect(decodeURIComponent(new URL(absolute!).pathname.slice(1)), issueId).toBe(issueId);
    }
  });

  it('accepts only templates that resolve to the server or to the http(s) origin they spell out, whatever the values (property)', () => {
    // Templates assembled from the pieces an attacker would combine, beside arbitrary text.
    const piece = fc.constantFrom(
      '/', '//', '\\', '\t', '\n', '\r', ' ', '\u00a0', '\u3000', ':', '@', '%', '%2F', '%5C', '%2e', '.', '..', '?', '#', '{', '}',
      'http://', 'https://', 'HTTPS://', 'http:', 'javascript:', 'data:', 'evil.example', 'paperclip.example', ':8080', 'issues',
      '{issueId}', '{companyId}', '{commentId}', '{secret}',
    );
    // Most start the way an accepted template starts, so the property is checked on links actually made.
    const start = fc.constantFrom('/', '/x', 'https://paperclip.example', 'http://paperclip.example:8080/', 'https://evil.example', 'HTTP://Paperclip.Example/', '');
    const template = fc.oneof(
      fc.tuple(start, fc.array(piece, { maxLength: 8 })).map(([first, parts]) => first + parts.join('')),
      fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
      fc.string(),
      fc.string({ unit: 'binary' }),
    );
    const value = fc.oneof(fc.constantFrom('//evil.example', '@evil.example', '../', '..', '.', '\\evil', '\t//evil', '%2F%2F', 'ISS-1'), fc.string({ minLength: 1 }));
    const serverOrigins = fc.constantFrom(origin, 'https://memplane.example', 'http://[::1]:4680');
    const linked = { path: 0, absolute: 0 };
    fc.assert(
      fc.property(template, value, value, serverOrigins, (candidate, issueId, companyId, serverOrigin) => {
        if (checkTemplate(candidate, serverOrigin) !== undefined) {
          expect(fillTemplate(candidate, { issueId, companyId, commentId: issueId }, serverOrigin)).toBeUndefined();
          return;
        }
        if (candidate === '') return;
        // The origin the template spells out before any field, read plainly; a path has the server's.
        const spelled = /^(https?:\/\/[^/?#]+)/i.exec(candidate);
        expect(spelled !== null || /^\/[^/\\]/.test(candidate) || candidate === '/', candidate).toBe(true);
        const allowed = spelled === null ? serverOrigin : new URL(spelled[1]!).origin;
        const href = fillTemplate(candidate, { issueId, companyId, commentId: issueId }, serverOrigin);
        if (href === undefined) return;
        const url = new URL(href);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(url.origin, `${JSON.stringify(candidate)} → ${href}`).toBe(allowed);
        linked[spelled === null ? 'path' : 'absolute'] += 1;
      }),
      { numRuns: 3000 },
    );
    // The property held on links actually made, of both kinds.
    expect(linked.path).toBeGreaterThan(50);
    expect(linked.absolute).toBeGreaterThan(50);
  }, 30_000);

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
