import type { MemoryScope } from '@memplane/core';
import { stableStringify } from '@memplane/core';
import { sectionHeadingWords, type MarkdownSection } from './markdown-section';

/**
 * A fence that the text cannot close: one tilde more than the longest run of tildes in the
 * text, and at least three. Record text can therefore never end its own block, start a new
 * section or forge another record's fields.
 */
export function fenceFor(text: string): string {
  if (!text.includes('~')) return '~~~';
  let longest = 0;
  for (const run of text.matchAll(/~+/g)) longest = Math.max(longest, run[0].length);
  return '~'.repeat(Math.max(3, longest + 1));
}

/**
 * Characters JSON leaves raw that some readers take for line breaks (U+2028, U+2029, NEL). They
 * are written as `\u` escapes, so every field stays on its line for any editor or parser.
 */
const rawLineBreaks = /[\u0085\u2028\u2029]/g;
const hasRawLineBreak = /[\u0085\u2028\u2029]/;

/** JSON on one line: stable key order, and no character any reader takes for a line break. */
export function oneLineJson(value: unknown): string {
  const json = stableStringify(value);
  return hasRawLineBreak.test(json) ? json.replace(rawLineBreaks, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

function jsonField(name: string, value: unknown): string {
  return `- ${name}: ${oneLineJson(value)}`;
}

const scopeJson = new WeakMap<MemoryScope, string>();

/** The scope field; the sections of a batch share one scope object, so it is rendered once. */
function scopeField(scope: MemoryScope): string {
  let json = scopeJson.get(scope);
  if (json === undefined) {
    json = oneLineJson(scope);
    scopeJson.set(scope, json);
  }
  return `- scope: ${json}`;
}

function plainField(name: string, value: string | number): string {
  return `- ${name}: ${value}`;
}

/** Renders one section. Every value that comes from a caller is JSON-encoded on one line or fenced. */
export function renderSection(section: MarkdownSection): string {
  const lines = [`## ${sectionHeadingWords[section.type]} ${section.id}`, ''];
  if (section.type === 'memory') {
    lines.push(
      plainField('kind', section.kind),
      plainField('status', section.status),
      plainField('confidence', section.confidence),
      plainField('pii_risk', section.piiRisk),
      plainField('version', section.version),
      jsonField('created_at', section.createdAt),
      jsonField('updated_at', section.updatedAt),
      scopeField(section.scope),
    );
    if (section.source !== undefined) lines.push(jsonField('source', section.source));
    if (section.summary !== undefined) lines.push(jsonField('summary', section.summary));
    if (section.metadata !== undefined) lines.push(jsonField('metadata', section.metadata));
    if (section.supersedes !== undefined) lines.push(jsonField('supersedes', section.supersedes));
    if (section.supersededBy !== undefined) lines.push(jsonField('superseded_by', section.supersededBy));
    if (section.reason !== undefined) lines.push(jsonField('reason', section.reason));
    if (section.evidence !== undefined) lines.push(jsonField('evidence', section.evidence));
    if (section.expiresAt !== undefined) lines.push(jsonField('expires_at', section.expiresAt));
    if (section.useCount !== undefined) lines.push(plainField('use_count', section.useCount));
  } else {
    lines.push(
      jsonField('created_at', section.createdAt),
      scopeField(section.scope),
      plainField('content_hash', `sha256:${section.contentHash}`),
    );
    if (section.source !== undefined) lines.push(jsonField('source', section.source));
    if (section.mimeType !== undefined) lines.push(jsonField('mime_type', section.mimeType));
    if (section.metadata !== undefined) lines.push(jsonField('metadata', section.metadata));
  }
  for (const [name, value] of section.extraFields ?? []) lines.push(`- ${name}: ${value}`);
  const fence = fenceFor(section.text);
  lines.push('', `${fence}text`, section.text, fence);
  if (section.notes !== undefined && section.notes.length > 0) lines.push('', ...section.notes);
  return `${lines.join('\n')}\n`;
}

/** The header of a new memory file: a title and the scope its records belong to. */
export function renderFileHeader(scope: MemoryScope, title: string): string {
  return [
    `# ${title}`,
    '',
    jsonField('scope', scope),
    '',
    'Written by @memplane/markdown. Each `## Memory <id>` section is one record; edit, add or delete',
    'sections by hand, then run `memplane markdown reindex --root <root>` (or keep a watcher running).',
    '',
  ].join('\n');
}

/** Renders a whole file: its preamble kept verbatim, then every section. */
export function renderFile(preamble: string, sections: ReadonlyArray<MarkdownSection>): string {
  const head = preamble.endsWith('\n') || preamble === '' ? preamble : `${preamble}\n`;
  return head + sections.map((section) => `\n${renderSection(section)}`).join('');
}
