import type { MemoryScope, MemorySourceRef } from './api/types';

/**
 * URL templates of the backlinks, one per kind of link. A template names fields in braces:
 * `{companyId}`, `{issueId}`, `{commentId}`, `{documentKey}`, `{runId}`, `{activityId}`,
 * `{agentId}`, `{projectId}`. Each value is percent-encoded before it is put in, so no id can
 * reshape the URL; a template whose fields are not all known (or hold `.` or `..`) gives no link.
 */
export interface BacklinkTemplates {
  issue: string;
  comment: string;
  document: string;
  run: string;
  activity: string;
}

/** The kinds of backlink, in the order they are shown. */
export const backlinkKinds = ['issue', 'comment', 'document', 'run', 'activity'] as const satisfies ReadonlyArray<keyof BacklinkTemplates>;

/** No templates: sources are shown as text until the operator sets them. */
export const emptyBacklinkTemplates: BacklinkTemplates = { issue: '', comment: '', document: '', run: '', activity: '' };

/** A link back to where a record or operation came from. */
export interface Backlink {
  /** What it points at, such as `issue ISS-1`. */
  label: string;
  /** An absolute http(s) URL, or a path of the server's own origin. */
  href: string;
}

const fieldPattern = /\{([a-zA-Z]+)\}/g;

// encodeURIComponent leaves `.` alone, and URL parsers read `.`, `..` and their percent-encoded
// forms (`%2E%2E`) alike as dot segments that climb out of the path: such an id gets no link.
const isDotSegment = (value: string) => /^\.{1,2}$/.test(value);

/** Whether a template is usable: empty (off), or an http(s) URL or an absolute path with known fields. */
export function checkTemplate(template: string): string | undefined {
  if (template === '') return undefined;
  if (!/^(https?:\/\/[^/\s]+|\/(?!\/))/i.test(template)) return 'must start with http://, https:// or a single /';
  for (const [, name] of template.matchAll(fieldPattern)) {
    if (!templateFields.includes(name as TemplateField)) return `unknown field {${name}}`;
  }
  return undefined;
}

const templateFields = ['companyId', 'issueId', 'commentId', 'documentKey', 'runId', 'activityId', 'agentId', 'projectId'] as const;
type TemplateField = (typeof templateFields)[number];

/** Fills one template, or gives undefined when it is off, invalid, names a field the source lacks, or a value is `.` or `..`. */
export function fillTemplate(template: string, values: Partial<Record<TemplateField, string>>, origin: string): string | undefined {
  if (template === '' || checkTemplate(template) !== undefined) return undefined;
  let missing = false;
  const filled = template.replace(fieldPattern, (_, name: string) => {
    const value = values[name as TemplateField];
    if (value === undefined || value === '' || isDotSegment(value)) {
      missing = true;
      return '';
    }
    return encodeURIComponent(value);
  });
  if (missing) return undefined;
  // Fail closed: whatever came out must still be an http(s) URL (never javascript:, data:, …).
  let url: URL;
  try {
    url = new URL(filled, origin);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/** An external reference is linked only when it is itself an absolute http(s) URL. */
function externalHref(reference: string): string | undefined {
  if (!/^https?:\/\//i.test(reference)) return undefined;
  try {
    const url = new URL(reference);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The backlinks of a source (and the scope it was written under), following the templates. */
export function backlinksOf(
  source: MemorySourceRef | undefined,
  scope: Partial<MemoryScope> | undefined,
  templates: BacklinkTemplates,
  origin: string,
): Backlink[] {
  if (source === undefined) return [];
  const values: Partial<Record<TemplateField, string>> = {
    companyId: source.companyId,
    issueId: source.issueId,
    commentId: source.commentId,
    documentKey: source.documentKey,
    runId: source.runId ?? scope?.runId,
    activityId: source.activityId,
    agentId: scope?.agentId,
    projectId: scope?.projectId,
  };
  const links: Backlink[] = [];
  const add = (label: string, template: string) => {
    const href = fillTemplate(template, values, origin);
    if (href !== undefined) links.push({ label, href });
  };
  if (source.issueId !== undefined) add(`issue ${source.issueId}`, templates.issue);
  if (source.kind === 'issue_comment' && source.commentId !== undefined) add(`comment ${source.commentId}`, templates.comment);
  if (source.kind === 'issue_document' && source.documentKey !== undefined) add(`document ${source.documentKey}`, templates.document);
  if (source.kind === 'run' && values.runId !== undefined) add(`run ${values.runId}`, templates.run);
  if (source.kind === 'activity' && source.activityId !== undefined) add(`activity ${source.activityId}`, templates.activity);
  if (source.kind === 'external_document' && source.externalRef !== undefined) {
    const href = externalHref(source.externalRef);
    if (href !== undefined) links.push({ label: 'external document', href });
  }
  return links;
}

const storageKey = 'memplane.inspector.backlinks';

/** Reads the templates kept in this browser (localStorage: they are settings, not secrets). */
export function readBacklinkTemplates(): BacklinkTemplates {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as Record<string, unknown>;
    const templates = { ...emptyBacklinkTemplates };
    for (const kind of backlinkKinds) {
      const value = stored[kind];
      if (typeof value === 'string' && checkTemplate(value) === undefined) templates[kind] = value;
    }
    return templates;
  } catch {
    return { ...emptyBacklinkTemplates };
  }
}

/** Keeps the templates in this browser. */
export function writeBacklinkTemplates(templates: BacklinkTemplates): void {
  localStorage.setItem(storageKey, JSON.stringify(templates));
}
