import { createHash } from 'node:crypto';

/** The characters and length every container tag of this adapter keeps to. */
export const containerTagPattern = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The container tag of a company: `<prefix>_<hash>`, where `<hash>` is the unpadded
 * base64url SHA-256 of the UTF-8 `companyId` (43 characters of `[A-Za-z0-9_-]`).
 *
 * Why a hash: a `companyId` may be up to 256 characters of any kind, a tag only 100 of
 * `[A-Za-z0-9_-]` (the intersection of what the SDK and the docs allow). Hashing maps every
 * id into that set with a fixed length; two different ids get the same tag only on a
 * SHA-256 collision. The prefix keeps deployments that share an organisation apart, and no
 * company name is disclosed to the provider through its tags.
 */
export function toSupermemoryContainerTag(companyId: string, prefix = 'mp'): string {
  const hash = createHash('sha256').update(companyId, 'utf8').digest('base64url');
  return `${prefix}_${hash}`;
}
