import { createHash } from 'node:crypto';
import { memoryScopeSchema, memorySourceRefSchema, normalizeScope, type MemoryScope } from '@memplane/core';
import { z } from 'zod';
import { initialStatus, isMemoryKind, type MemoryItemStatus, memoryItemStatuses, type PiiRisk, piiRiskOf } from '@memplane/rules';
import {
  sectionHeadingPattern,
  sectionIdPattern,
  type MarkdownSection,
  type MemoryEvidence,
  type MemoryRecordSection,
  type ResourceSection,
} from './markdown-section';

/** A problem found while reading a file; the section it is in is skipped or repaired. */
export interface ParseProblem {
  /** The 1-based line. */
  line: number;
  /** What is wrong. */
  message: string;
}

/** A markdown memory file, read. */
export interface ParsedMarkdownFile {
  /** Everything before the first section, verbatim (trailing blank lines trimmed). */
  preamble: string;
  /** The scope the header declares (`- scope: {...}`), if any. */
  fileScope?: MemoryScope;
  /** The valid sections, in file order. */
  sections: MarkdownSection[];
  /** Problems found. */
  problems: ParseProblem[];
  /** The verbatim text of sections that could not be read, kept so a rewrite never loses them. */
  unreadable: string[];
}

interface RawSection {
  word: string;
  id: string;
  line: number;
  lines: string[];
  fields: Array<[string, string, number]>;
  text?: string;
  notes: string[];
}

// `s`: a value may hold U+2028 or U+2029 (files written before they were escaped); lines are split on \n alone.
const fieldPattern = /^- ([a-z_]+): (.*)$/s;
const openingFencePattern = /^(`{3,}|~{3,})(.*)$/;
const knownMemoryFields = new Set([
  'kind', 'status', 'confidence', 'pii_risk', 'version', 'created_at', 'updated_at', 'scope', 'source', 'summary',
  'metadata', 'supersedes', 'superseded_by', 'reason', 'evidence', 'expires_at', 'use_count',
]);
const knownResourceFields = new Set(['created_at', 'scope', 'content_hash', 'source', 'mime_type', 'metadata']);
const metadataSchema = z.record(z.string(), z.unknown());
const evidenceSchema = z.array(z.strictObject({ resourceId: z.string().min(1), quote: z.string().optional() }));

/**
 * The metadata field: an object that JSON.parse made is already a valid record and is kept as it
 * is (a rebuild parses one per section); anything else goes through the schema, which rejects it.
 */
function parseMetadata(value: unknown): { success: true; data: Record<string, unknown> } | { success: false } {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { success: true, data: value as Record<string, unknown> };
  const parsed = metadataSchema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false };
}

function isClosingFence(line: string, fence: string): boolean {
  const trimmed = line.replace(/^ {0,3}/, '').trimEnd();
  return trimmed.length >= fence.length && trimmed === (fence[0] as string).repeat(trimmed.length);
}

function splitSections(content: string): { preambleLines: string[]; raw: RawSection[] } {
  const lines = content.split('\n');
  const preambleLines: string[] = [];
  const raw: RawSection[] = [];
  let current: RawSection | undefined;
  let fence: string | undefined;
  let fencedLines: string[] = [];
  let fenceIsText = false;
  lines.forEach((line, index) => {
    current?.lines.push(line);
    if (fence !== undefined) {
      if (isClosingFence(line, fence)) {
        if (fenceIsText && current !== undefined) current.text = fencedLines.join('\n');
        else (current?.notes ?? preambleLines).push(...fencedLines, line);
        fence = undefined;
      } else fencedLines.push(line);
      return;
    }
    const heading = sectionHeadingPattern.exec(line);
    if (heading !== null) {
      current?.lines.pop();
      current = { word: heading[1] as string, id: heading[2] as string, line: index + 1, lines: [line], fields: [], notes: [] };
      raw.push(current);
      return;
    }
    const opening = openingFencePattern.exec(line);
    if (opening !== null && !(opening[1]?.[0] === '`' && opening[2]?.includes('`'))) {
      fence = opening[1] as string;
      fencedLines = [];
      fenceIsText = current !== undefined && current.text === undefined && (opening[2] ?? '').trim() === 'text';
      if (!fenceIsText) (current?.notes ?? preambleLines).push(line);
      return;
    }
    if (current === undefined) {
      preambleLines.push(line);
      return;
    }
    const field = current.text === undefined ? fieldPattern.exec(line) : null;
    if (field !== null) current.fields.push([field[1] as string, field[2] as string, index + 1]);
    else if (line.trim() !== '' || current.notes.length > 0) current.notes.push(line);
  });
  if (fence !== undefined) {
    const owner = current?.notes ?? preambleLines;
    if (fenceIsText && current !== undefined) current.text = fencedLines.join('\n');
    else owner.push(...fencedLines);
  }
  return { preambleLines, raw };
}

function parseValue(raw: string): unknown {
  const trimmed = raw.trim();
  if (/^[[{"]/.test(trimmed) || trimmed === 'null' || trimmed === 'true' || trimmed === 'false') {
    return JSON.parse(trimmed) as unknown;
  }
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(trimmed)) return Number(trimmed);
  return trimmed;
}

function trimTrailingBlank(lines: string[]): string[] {
  const copy = [...lines];
  while (copy.length > 0 && (copy.at(-1) as string).trim() === '') copy.pop();
  return copy;
}

/** The sha256 of a text, hex. */
export function contentHashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function scopeFrom(value: unknown): MemoryScope | undefined {
  const parsed = memoryScopeSchema.safeParse(value);
  return parsed.success ? normalizeScope(parsed.data) : undefined;
}

/** Builds a section from its raw lines, or explains why it cannot. */
/**
 * Validated scopes and sources by their raw field text: the sections of one file almost always
 * repeat the same ones, and validating each once keeps a 100k-record rebuild fast.
 */
interface ValidationCache {
  scopes: Map<string, MemoryScope | undefined>;
  sources: Map<string, ReturnType<typeof memorySourceRefSchema.safeParse>>;
}

function cached<Value>(cache: Map<string, Value>, key: string | undefined, compute: () => Value): Value {
  if (key === undefined) return compute();
  if (cache.has(key)) return cache.get(key) as Value;
  const value = compute();
  cache.set(key, value);
  return value;
}

function buildSection(
  raw: RawSection,
  fileScope: MemoryScope | undefined,
  defaultTime: string,
  problems: ParseProblem[],
  cache: ValidationCache,
): MarkdownSection | undefined {
  const fail = (message: string) => {
    problems.push({ line: raw.line, message: `${raw.word} ${raw.id}: ${message}` });
    return undefined;
  };
  if (!sectionIdPattern.test(raw.id)) return fail('the id must be 1 to 100 letters, digits, "_" or "-"');
  if (raw.text === undefined) return fail('it has no ~~~text block');
  const values = new Map<string, unknown>();
  const known = raw.word === 'Memory' ? knownMemoryFields : knownResourceFields;
  const extraFields: Array<[string, string]> = [];
  for (const [name, value, line] of raw.fields) {
    if (!known.has(name)) {
      extraFields.push([name, value]);
      continue;
    }
    try {
      values.set(name, parseValue(value));
    } catch {
      problems.push({ line, message: `${raw.word} ${raw.id}: field ${name} is not valid JSON; it was ignored` });
    }
  }
  const rawField = (name: string) => raw.fields.find(([field]) => field === name)?.[1];
  const scope = values.has('scope') ? cached(cache.scopes, rawField('scope'), () => scopeFrom(values.get('scope'))) : fileScope;
  if (scope === undefined) return fail('it has no valid scope (in the section or the file header)');
  const source = values.has('source')
    ? cached(cache.sources, rawField('source'), () => memorySourceRefSchema.safeParse(values.get('source')))
    : undefined;
  if (source !== undefined && !source.success) return fail('its source is not a valid source ref');
  const metadata = values.has('metadata') ? parseMetadata(values.get('metadata')) : undefined;
  if (metadata !== undefined && !metadata.success) return fail('its metadata is not an object');
  const text = raw.text;
  const createdAt = typeof values.get('created_at') === 'string' ? (values.get('created_at') as string) : defaultTime;
  const common = {
    id: raw.id,
    scope,
    createdAt,
    text,
    ...(source === undefined ? {} : { source: source.data }),
    ...(metadata === undefined ? {} : { metadata: metadata.data }),
    ...(extraFields.length === 0 ? {} : { extraFields }),
    ...(raw.notes.length === 0 ? {} : { notes: trimTrailingBlank(raw.notes) }),
  };
  if (raw.word === 'Resource') {
    const mimeType = values.get('mime_type');
    const resource: ResourceSection = {
      type: 'resource',
      ...common,
      contentHash: contentHashOf(text),
      ...(typeof mimeType === 'string' ? { mimeType } : {}),
    };
    return resource;
  }
  return buildMemory(values, common, createdAt);
}

function buildMemory(
  values: Map<string, unknown>,
  common: Omit<MemoryRecordSection, 'type' | 'kind' | 'status' | 'confidence' | 'piiRisk' | 'version' | 'updatedAt'>,
  createdAt: string,
): MemoryRecordSection {
  const kind = values.get('kind');
  const confidenceValue = values.get('confidence');
  const confidence = typeof confidenceValue === 'number' && confidenceValue >= 0 && confidenceValue <= 1 ? confidenceValue : 1;
  const piiValue = values.get('pii_risk');
  const piiRisk: PiiRisk =
    piiValue === 0 || piiValue === 1 || piiValue === 2
      ? piiValue
      : piiRiskOf({ text: common.text, summary: typeof values.get('summary') === 'string' ? (values.get('summary') as string) : undefined, metadata: common.metadata });
  const statusValue = values.get('status');
  const status = memoryItemStatuses.includes(statusValue as MemoryItemStatus)
    ? (statusValue as MemoryItemStatus)
    : initialStatus(confidence, piiRisk);
  const version = values.get('version');
  const updatedAt = values.get('updated_at');
  const optionalString = (name: string, emptyAllowed = false) => {
    const value = values.get(name);
    return typeof value === 'string' && (emptyAllowed || value !== '') ? value : undefined;
  };
  // Most sections have no evidence; a failed parse builds an error object, so absent evidence is not parsed.
  const evidence = values.has('evidence') ? evidenceSchema.safeParse(values.get('evidence')) : undefined;
  const useCount = values.get('use_count');
  const optional = {
    summary: optionalString('summary', true),
    supersedes: optionalString('supersedes'),
    supersededBy: optionalString('superseded_by'),
    reason: optionalString('reason', true),
    expiresAt: optionalString('expires_at'),
    evidence: evidence?.success === true ? (evidence.data as MemoryEvidence[]) : undefined,
    useCount: typeof useCount === 'number' && Number.isInteger(useCount) && useCount >= 0 ? useCount : undefined,
  };
  return {
    type: 'memory',
    ...common,
    kind: isMemoryKind(kind) ? kind : 'note',
    status,
    confidence,
    piiRisk,
    version: typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : 1,
    updatedAt: typeof updatedAt === 'string' ? updatedAt : createdAt,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

/**
 * Reads a markdown memory file. Headings (`## Memory <id>`, `## Resource <id>`) count only
 * outside fenced blocks, so record text can never start a section. Sections that cannot be
 * read are skipped and reported in `problems`; `defaultTime` stands in for missing timestamps.
 */
export function parseMarkdownFile(content: string, defaultTime: string): ParsedMarkdownFile {
  const { preambleLines, raw } = splitSections(content);
  const problems: ParseProblem[] = [];
  let fileScope: MemoryScope | undefined;
  for (const line of preambleLines) {
    const field = fieldPattern.exec(line);
    if (field?.[1] === 'scope') {
      try {
        fileScope = scopeFrom(JSON.parse(field[2] as string));
      } catch {
        problems.push({ line: 1, message: 'the file header scope is not valid JSON' });
      }
    }
  }
  const sections: MarkdownSection[] = [];
  const unreadable: string[] = [];
  const cache: ValidationCache = { scopes: new Map(), sources: new Map() };
  for (const entry of raw) {
    const section = buildSection(entry, fileScope, defaultTime, problems, cache);
    if (section !== undefined) sections.push(section);
    else unreadable.push(trimTrailingBlank(entry.lines).join('\n'));
  }
  const preamble = trimTrailingBlank(preambleLines).join('\n');
  return { preamble: preamble === '' ? '' : `${preamble}\n`, ...(fileScope === undefined ? {} : { fileScope }), sections, problems, unreadable };
}
