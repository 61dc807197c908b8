/**
 * Company-qualified mem0 entity ids (`user_id`, `agent_id`, `run_id`).
 *
 * mem0 entity ids are global to a project, so `alice` of two companies would share one mem0
 * user (and one profile): every id names its company. The id also travels in URL paths
 * (`GET /v2/entities/user/{id}/profile/`), and a server that routes on the decoded path
 * cannot match a segment holding `/` or `%2F`. So the id uses only characters that
 * `encodeURIComponent` leaves alone and no router treats as special: `[A-Za-z0-9_-]`, `.`
 * as the escape character and `~` as the separator.
 *
 * Each part escapes every UTF-8 byte outside `[A-Za-z0-9_-]` as `.XX` (upper-case hex), so
 * `.` and `~` never appear raw in a part. Decoding is the inverse, and two different
 * `(company, value)` pairs never give the same id: parts are escaped injectively and the
 * separator cannot occur inside a part.
 */

const plain = /^[A-Za-z0-9_-]$/;
const separator = '~';

/** Escapes one part of an entity id: `[A-Za-z0-9_-]` as is, every other UTF-8 byte as `.XX`. */
export function escapeEntityPart(value: string): string {
  let escaped = '';
  for (const character of value) {
    if (plain.test(character)) {
      escaped += character;
      continue;
    }
    for (const byte of Buffer.from(character, 'utf8')) escaped += `.${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return escaped;
}

/** The inverse of {@link escapeEntityPart}, or undefined when the text is not an escaped part. */
export function unescapeEntityPart(escaped: string): string | undefined {
  if (!/^(?:[A-Za-z0-9_-]|\.[0-9A-F]{2})*$/.test(escaped)) return undefined;
  const bytes: number[] = [];
  for (let index = 0; index < escaped.length; index += 1) {
    if (escaped[index] === '.') {
      bytes.push(Number.parseInt(escaped.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(escaped.charCodeAt(index));
    }
  }
  const text = Buffer.from(bytes).toString('utf8');
  // A byte sequence that is not UTF-8 decodes lossily; such an id was not written here.
  return escapeEntityPart(text) === escaped ? text : undefined;
}

/** The entity id of `value` (a subject, agent or run) of a company: `<company>~<value>`, both escaped. */
export function qualifiedEntityId(companyId: string, value: string): string {
  return `${escapeEntityPart(companyId)}${separator}${escapeEntityPart(value)}`;
}

/** The company and value an entity id of this adapter names, or undefined for any other id. */
export function readQualifiedEntityId(entityId: string): { companyId: string; value: string } | undefined {
  const parts = entityId.split(separator);
  if (parts.length !== 2) return undefined;
  const companyId = unescapeEntityPart(parts[0] as string);
  const value = unescapeEntityPart(parts[1] as string);
  return companyId === undefined || value === undefined ? undefined : { companyId, value };
}

/** The prefix every entity id of a company starts with. */
export function entityIdPrefix(companyId: string): string {
  return `${escapeEntityPart(companyId)}${separator}`;
}

/** The prefix entity ids had before they were escaped (`encodeURIComponent(company)/`), still found on older records. */
function legacyEntityIdPrefix(companyId: string): string {
  return `${encodeURIComponent(companyId)}/`;
}

/**
 * Whether an entity id is company-qualified for another company. Ids of this adapter's
 * current form hold `~` and never `/`; older ones hold `/` and start with the URI-encoded
 * company. An id of neither form (written outside memplane) is not judged here: the
 * record's `app_id` and scope metadata decide.
 */
export function isForeignEntityId(entityId: string | null | undefined, companyId: string, prefix: string = entityIdPrefix(companyId)): boolean {
  if (typeof entityId !== 'string') return false;
  if (entityId.includes('/')) return !entityId.startsWith(legacyEntityIdPrefix(companyId));
  return entityId.includes(separator) && !entityId.startsWith(prefix);
}
