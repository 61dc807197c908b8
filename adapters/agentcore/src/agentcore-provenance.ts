import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { MemoryWarning } from '@memplane/core';

/** AgentCore allows at most 15 metadata entries on a record or an event. */
export const maximumMetadataEntries = 15;
/** AgentCore allows at most 256 characters in a metadata string value. */
export const maximumMetadataValueLength = 256;

const chunkKeyPrefix = 'memplane.p';
const chunkKeys = Array.from({ length: 10 }, (_, index) => `${chunkKeyPrefix}${index}`);

/**
 * What the adapter keeps beside a record or an event: the source ref, the caller metadata and
 * the summary of a record, and for events also the hook and payload details. Short keys keep
 * it small, because it must fit in a few metadata values.
 */
export interface StoredProvenance {
  /** The source ref, unchanged. */
  s?: unknown;
  /** The caller metadata, unchanged. */
  m?: Record<string, unknown>;
  /** The record summary. */
  y?: string;
  /** The hook context of a capture. */
  h?: unknown;
  /** The payload media type of a capture. */
  t?: string;
  /** The payload metadata of a capture. */
  pm?: Record<string, unknown>;
}

/** The metadata key of provenance chunk `index`. */
export function provenanceChunkKey(index: number): string {
  return chunkKeys[index] ?? `${chunkKeyPrefix}${index}`;
}

function chunk(header: 'j' | 'z', data: string, available: number): string[] | undefined {
  const chunks: string[] = [];
  let rest = data;
  // The first value carries the format and the chunk count (`j3.`), so stale chunks of an
  // earlier, longer version of the record are ignored after a correction.
  const firstCapacity = maximumMetadataValueLength - 3;
  chunks.push(rest.slice(0, firstCapacity));
  rest = rest.slice(firstCapacity);
  while (rest.length > 0) {
    chunks.push(rest.slice(0, maximumMetadataValueLength));
    rest = rest.slice(maximumMetadataValueLength);
  }
  if (chunks.length > Math.min(available, 9)) return undefined;
  chunks[0] = `${header}${chunks.length}.${chunks[0]}`;
  return chunks;
}

/**
 * Packs provenance into at most `available` metadata string values. The JSON is base64
 * encoded, because AgentCore metadata values only accept `[a-zA-Z0-9\s._:/=+@-]`, and
 * deflated first when the plain form does not fit. Returns undefined when even that does
 * not fit.
 */
export function packProvenance(provenance: StoredProvenance, available: number): Record<string, { stringValue: string }> | undefined {
  const json = Buffer.from(JSON.stringify(provenance), 'utf8');
  const chunks =
    chunk('j', json.toString('base64'), available) ?? chunk('z', deflateRawSync(json).toString('base64'), available);
  if (chunks === undefined) return undefined;
  return Object.fromEntries(chunks.map((value, index) => [provenanceChunkKey(index), { stringValue: value }]));
}

/**
 * Packs provenance, dropping what does not fit, most expendable first: the summary and the
 * capture details, then the caller metadata, then every source field but its kind and
 * company. Each loss is reported as a `compatibility` warning, never silently.
 */
export function packProvenanceWithinLimit(
  provenance: StoredProvenance,
  available: number,
  where: string,
  warnings: MemoryWarning[],
): Record<string, { stringValue: string }> {
  const attempts: Array<{ value: StoredProvenance; feature: string }> = [
    { value: provenance, feature: where },
    { value: { s: provenance.s, m: provenance.m }, feature: `${where}.summary` },
    { value: { s: provenance.s }, feature: `${where}.metadata` },
    { value: { s: minimalSource(provenance.s) }, feature: `${where}.source` },
  ];
  for (const attempt of attempts) {
    const packed = packProvenance(attempt.value, available);
    if (packed === undefined) continue;
    const lost = describeLoss(provenance, attempt.value);
    if (lost !== undefined) {
      warnings.push({
        type: 'compatibility',
        feature: attempt.feature,
        details: `AgentCore keeps at most ${maximumMetadataEntries} metadata values of ${maximumMetadataValueLength} characters, so ${lost} did not fit and ${lost.includes(', ') ? 'were' : 'was'} not stored.`,
      });
    }
    return packed;
  }
  warnings.push({ type: 'compatibility', feature: `${where}.source`, details: 'The provenance did not fit in the AgentCore metadata limits and was not stored.' });
  return {};
}

const partNames: Array<[keyof StoredProvenance, string]> = [
  ['y', 'the summary'],
  ['h', 'the hook context'],
  ['t', 'the payload media type'],
  ['pm', 'the payload metadata'],
  ['m', 'the caller metadata'],
  ['s', 'every source field except kind and companyId'],
];

/** What of `original` is missing or changed in `kept`, as words, or undefined when nothing is. */
function describeLoss(original: StoredProvenance, kept: StoredProvenance): string | undefined {
  const lost = partNames.filter(([key]) => original[key] !== undefined && original[key] !== kept[key]).map(([, name]) => name);
  return lost.length === 0 ? undefined : lost.join(', ');
}

function minimalSource(source: unknown): unknown {
  if (typeof source !== 'object' || source === null) return undefined;
  const { kind, companyId } = source as { kind?: unknown; companyId?: unknown };
  return { kind, companyId };
}

const nonAscii = /[^\x00-\x7f]/;

/**
 * The JSON text of plain (`j`) chunks, exactly as `Buffer.from(data, 'base64')` decodes it.
 * `atob` is several times faster than the Buffer round trip, but yields one character per
 * byte, which equals the UTF-8 text only when every byte is ASCII, and it refuses input that
 * Buffer accepts (the URL-safe alphabet, stray characters); both cases take the Buffer path.
 */
function decodePlainChunks(data: string): string {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return Buffer.from(data, 'base64').toString('utf8');
  }
  return nonAscii.test(binary) ? Buffer.from(data, 'base64').toString('utf8') : binary;
}

type MetadataMap = Record<string, { stringValue?: unknown } | null | undefined> | undefined;

/**
 * Reads provenance back from metadata. Returns undefined when the record carries none (for
 * example a record a strategy extracted), and `'unreadable'` when the chunks are damaged.
 */
export function unpackProvenance(metadata: MetadataMap): StoredProvenance | undefined | 'unreadable' {
  const first = metadata?.[provenanceChunkKey(0)]?.stringValue;
  if (first === undefined) return undefined;
  if (typeof first !== 'string') return 'unreadable';
  // The header is `j<count>.` or `z<count>.`; read by hand, as this runs for every record read.
  const format = first[0];
  const count = first.charCodeAt(1) - 48;
  if ((format !== 'j' && format !== 'z') || count < 1 || count > 9 || first[2] !== '.') return 'unreadable';
  let data = first.slice(3);
  for (let index = 1; index < count; index += 1) {
    const value = metadata?.[provenanceChunkKey(index)]?.stringValue;
    if (typeof value !== 'string') return 'unreadable';
    data += value;
  }
  try {
    const parsed = JSON.parse(format === 'z' ? inflateRawSync(Buffer.from(data, 'base64')).toString('utf8') : decodePlainChunks(data)) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as StoredProvenance) : 'unreadable';
  } catch {
    return 'unreadable';
  }
}
