import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizeScope, stableStringify, type MemoryScope } from '@memplane/core';

/**
 * Extraction job ids the adapter can place without mem0's help.
 *
 * mem0 documents an event's `payload` only as "the original payload": nothing says it
 * echoes `app_id`, the metadata or the messages. So the job id itself says whose job it is:
 * `<event id>.<scope digest>.<signature>`, where the digest is of the capture's scope and
 * the signature (HMAC with the cursor secret) binds event, digest and company. A job id of
 * another company, or a forged one, fails the signature check before any call.
 */
export interface Mem0JobIds {
  /** The job id of an event submitted for `scope`. */
  issue(eventId: string, scope: MemoryScope): string;
  /** The event and scope digest of a job id signed for the company of `scope`, or undefined. */
  read(jobId: string, scope: MemoryScope): { eventId: string; scopeDigest: string } | undefined;
  /** The digest of a scope, as job ids carry it. */
  digest(scope: MemoryScope): string;
}

const jobIdPattern = /^([A-Za-z0-9_-]{1,128})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

/** Creates the job ids of one adapter, keyed by the cursor secret (peers sharing it accept each other's ids). */
export function createMem0JobIds(secret: string | Uint8Array | undefined): Mem0JobIds {
  const key = secret ?? randomBytes(32);
  const digest = (scope: MemoryScope) => createHash('sha256').update(stableStringify(normalizeScope(scope))).digest('base64url').slice(0, 22);
  const sign = (companyId: string, eventId: string, scopeDigest: string) =>
    createHmac('sha256', key).update(`mem0-job|${companyId.length}|${companyId}|${eventId}|${scopeDigest}`).digest('base64url').slice(0, 22);
  return {
    digest,
    issue(eventId, scope) {
      const scopeDigest = digest(scope);
      return `${eventId}.${scopeDigest}.${sign(scope.companyId, eventId, scopeDigest)}`;
    },
    read(jobId, scope) {
      const match = jobIdPattern.exec(jobId);
      if (match === null) return undefined;
      const [, eventId = '', scopeDigest = '', signature = ''] = match;
      const expected = Buffer.from(sign(scope.companyId, eventId, scopeDigest));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given) ? { eventId, scopeDigest } : undefined;
    },
  };
}
