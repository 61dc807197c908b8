import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Signs job ids to the company (container tag) that captured them. */
export interface SupermemoryJobSigner {
  sign(containerTag: string, documentId: string, submittedAtMs: number): string;
  verify(containerTag: string, documentId: string, submittedAtMs: number, signature: string): boolean;
}

/**
 * Creates a signer keyed by the cursor secret (so peers that share it accept each other's
 * job ids), or by 32 random bytes when none is set.
 */
export function createSupermemoryJobSigner(secret: string | Uint8Array | undefined): SupermemoryJobSigner {
  const key = secret ?? randomBytes(32);
  const sign = (containerTag: string, documentId: string, submittedAtMs: number) =>
    createHmac('sha256', key).update(`supermemory-job|${containerTag}|${documentId}|${submittedAtMs}`).digest('base64url').slice(0, 22);
  return {
    sign,
    verify(containerTag, documentId, submittedAtMs, signature) {
      const expected = Buffer.from(sign(containerTag, documentId, submittedAtMs));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
