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

const templateFields = ['companyId', 'issueId', 'commentId', 'documentKey', 'runId', 'activityId', 'agentId', 'projectId'] as const;
type TemplateField = (typeof templateFields)[number];

/** The name of each template as the Settings page labels it, for the errors that name a setting. */
export const backlinkSettingLabels: Record<keyof BacklinkTemplates, string> = {
  issue: 'Issue link template',
  comment: 'Comment link template',
  document: 'Document link template',
  run: 'Run link template',
  activity: 'Activity link template',
};

/** A backlink template refused when it is set: names the setting and what is wrong with it. */
export class BacklinkTemplateError extends TypeError {
  override readonly name = 'BacklinkTemplateError';
  /** The template refused, such as `issue`. */
  readonly setting: keyof BacklinkTemplates;
  /** What is wrong with it, such as `must stay on this server`. */
  readonly problem: string;
  constructor(setting: keyof BacklinkTemplates, problem: string) {
    super(`${backlinkSettingLabels[setting]} (backlinks.${setting}): ${problem}`);
    this.setting = setting;
    this.problem = problem;
  }
}

// encodeURIComponent leaves `.` alone, and URL parsers read `.`, `..` and their percent-encoded
// forms (`%2E%2E`) alike as dot segments that climb out of the path: such an id gets no link.
const isDotSegment = (value: string) => /^\.{1,2}$/.test(value);

// URL parsers drop tabs and line breaks anywhere and read `\` as `/`, so `/\evil.example` and
// `/<tab>/evil.example` are `//evil.example`: another origin. Such characters are refused outright.
// eslint-disable-next-line no-control-regex
const unsafeCharacters = /[\u0000-\u0020\u007f-\u00a0\\]|\s/u;

/**
 * The origin a template's links must resolve to, or what is wrong with it. A path (one `/`)
 * links on the server's own origin; an absolute http(s) template on the origin it spells out
 * before its first `/`, `?` or `#`, which holds no field, user name or percent sign, so no
 * value filled in can move the link to another host.
 */
function templateOrigin(template: string, serverOrigin: string): { origin: string } | { problem: string } {
  if (unsafeCharacters.test(template)) return { problem: 'must not hold spaces, tabs, line breaks, control characters or backslashes' };
  for (const [, name] of template.matchAll(fieldPattern)) {
    if (!templateFields.includes(name as TemplateField)) return { problem: `unknown field {${name}}` };
  }
  if (/[{}]/.test(template.replace(fieldPattern, ''))) return { problem: 'has a brace outside a {field}' };
  let origin: string;
  const absolute = /^https?:\/\//i.exec(template);
  if (absolute !== null) {
    const rest = template.slice(absolute[0].length);
    const authority = rest.slice(0, rest.search(/[/?#]|$/));
    if (authority === '') return { problem: 'names no host' };
    if (/[{}]/.test(authority)) return { problem: 'may hold fields only after the host' };
    if (/[@%]/.test(authority)) return { problem: 'must name the host plainly (no user name, password or percent sign)' };
    try {
      origin = new URL(`${absolute[0]}${authority}`).origin;
    } catch {
      return { problem: 'is not a valid URL' };
    }
  } else if (/^\/(?![/\\])/.test(template)) {
    origin = new URL(serverOrigin).origin;
  } else {
    return { problem: 'must start with http://, https:// or a single /' };
  }
  // Fields filled with a plain value must land on that origin too.
  let trial: URL;
  try {
    trial = new URL(template.replace(fieldPattern, 'x'), serverOrigin);
  } catch {
    return { problem: 'is not a valid URL' };
  }
  if ((trial.protocol !== 'http:' && trial.protocol !== 'https:') || trial.origin !== origin) {
    return { problem: absolute === null ? 'must stay on this server' : `must stay on ${origin}` };
  }
  return { origin };
}

/**
 * Whether a template is usable: empty (off), a path of this server (`serverOrigin`) or an
 * http(s) URL whose host is fixed text, with known fields. Gives what is wrong, or undefined.
 */
export function checkTemplate(template: string, serverOrigin: string): string | undefined {
  if (template === '') return undefined;
  const checked = templateOrigin(template, serverOrigin);
  return 'problem' in checked ? checked.problem : undefined;
}

/** The origin a usable template links to (this server's for a path), or undefined when it is off or refused. */
export function templateLinkOrigin(template: string, serverOrigin: string): string | undefined {
  if (template === '') return undefined;
  const checked = templateOrigin(template, serverOrigin);
  return 'origin' in checked ? checked.origin : undefined;
}

/**
 * The templates, each checked: throws {@link BacklinkTemplateError} naming the first refused
 * setting. Values are trimmed; an unknown kind or a value that is not a string is refused too.
 */
export function parseBacklinkTemplates(input: Record<string, unknown>, serverOrigin: string): BacklinkTemplates {
  const templates = { ...emptyBacklinkTemplates };
  for (const kind of backlinkKinds) {
    const value = input[kind] ?? '';
    if (typeof value !== 'string') throw new BacklinkTemplateError(kind, 'must be text');
    const template = value.trim();
    const problem = checkTemplate(template, serverOrigin);
    if (problem !== undefined) throw new BacklinkTemplateError(kind, problem);
    templates[kind] = template;
  }
  return templates;
}

/**
 * Fills one template, or gives undefined when it is off, invalid, names a field the source
 * lacks, a value is `.` or `..`, or the filled URL would leave the template's origin (checked
 * again here, whatever was stored: a path must stay on `serverOrigin`).
 */
export function fillTemplate(template: string, values: Partial<Record<TemplateField, string>>, serverOrigin: string): string | undefined {
  if (template === '') return undefined;
  const checked = templateOrigin(template, serverOrigin);
  if ('problem' in checked) return undefined;
  let missing = false;
  const filled = template.replace(fieldPattern, (_, name: string) => {
    const value = values[name as TemplateField];
    if (value === undefined || value === '' || isDotSegment(value)) {
      missing = true;
      return '';
    }
    try {
      return encodeURIComponent(value);
    } catch {
      // A lone surrogate cannot be encoded: no link rather than a broken page.
      missing = true;
      return '';
    }
  });
  if (missing) return undefined;
  // Fail closed: whatever came out must be an http(s) URL on the template's origin (never javascript:, data:, another host).
  let url: URL;
  try {
    url = new URL(filled, serverOrigin);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin === checked.origin ? url.href : undefined;
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

/**
 * Reads the templates kept in this browser (localStorage: they are settings, not secrets). A
 * stored template that is refused now (kept by an older inspector, say) is dropped.
 */
export function readBacklinkTemplates(storage?: Pick<Storage, 'getItem'>, serverOrigin?: string): BacklinkTemplates {
  try {
    const stored = JSON.parse((storage ?? localStorage).getItem(storageKey) ?? '{}') as Record<string, unknown>;
    const origin = serverOrigin ?? window.location.origin;
    const templates = { ...emptyBacklinkTemplates };
    for (const kind of backlinkKinds) {
      const value = stored[kind];
      if (typeof value === 'string' && checkTemplate(value, origin) === undefined) templates[kind] = value;
    }
    return templates;
  } catch {
    return { ...emptyBacklinkTemplates };
  }
}

/** Keeps the templates in this browser, each checked first: a refused one throws {@link BacklinkTemplateError} and nothing is kept. */
export function writeBacklinkTemplates(templates: BacklinkTemplates, serverOrigin: string = window.location.origin): BacklinkTemplates {
  const checked = parseBacklinkTemplates({ ...templates }, serverOrigin);
  localStorage.setItem(storageKey, JSON.stringify(checked));
  return checked;
}
