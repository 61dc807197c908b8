import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MemoryScopeViolationError, memoryScopeFields, type MemoryScope } from '@memplane/core';

/** The folder under the root that holds one folder per company. */
export const companiesFolder = 'companies';
/** The folder under the root that holds derived and operational state (index, jobs, lock). */
export const stateFolder = '.memplane';
/** The folder, inside a scope folder, that holds captured resources. */
export const resourcesFolder = 'resources';
/** The scope folder of records written with only a `companyId`. */
export const companyWideFolder = '_company';

const readable = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const longestReadableSegment = 80;
/**
 * Names Windows reserves for devices in every folder, in any case and with any extension
 * (`CON`, `aux.md`, `LPT1`); COM0 and LPT0 too, which some versions reserve.
 */
const reservedOnWindows = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|$)/i;

/** Percent-encodes the UTF-8 bytes of one character. */
function percentEncoded(character: string): string {
  return Array.from(Buffer.from(character, 'utf8'))
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

const shortNames: Record<string, string> = {
  agentId: 'agent',
  projectId: 'project',
  issueId: 'issue',
  runId: 'run',
  subjectId: 'subject',
  sessionKey: 'session',
  namespace: 'namespace',
};

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 24);
}

/**
 * Turns any identifier into one path segment that is safe on Linux, macOS and Windows: readable
 * identifiers stay as they are; anything else is percent-encoded, so `/`, `\\`, `..`, NUL and
 * control characters can never reach the file system. A segment never ends with a dot or a space
 * (Windows drops them, so `a.` and `a` would share a folder) and is never a reserved device name
 * (`CON`, `aux`, `LPT1`, with or without extension): their first or last character is
 * percent-encoded. A long result is cut and suffixed with `~` and a hash of the original.
 * {@link decodePathSegment} reverses every segment that was not cut.
 */
export function encodePathSegment(value: string): string {
  let encoded =
    readable.test(value) && !value.endsWith('.') && !reservedOnWindows.test(value)
      ? value
      : Array.from(value)
          .map((character) => (/^[A-Za-z0-9_-]$/.test(character) ? character : percentEncoded(character)))
          .join('');
  // Only letters, digits, "_", "-" and "%" are left, so a reserved name is the whole segment.
  if (reservedOnWindows.test(encoded)) encoded = percentEncoded(encoded[0] as string) + encoded.slice(1);
  if (encoded.length > longestReadableSegment) {
    encoded = `${encoded.slice(0, longestReadableSegment - 26)}~${hashOf(value)}`;
  }
  return encoded;
}

/**
 * The identifier a segment of {@link encodePathSegment} was made from, or undefined for a segment
 * cut to length (its tail is a hash) or one it cannot have made. Folders written before reserved
 * names and trailing dots were encoded (`CON`, `a.`) decode too.
 */
export function decodePathSegment(segment: string): string | undefined {
  if (segment.includes('~') || !/^[A-Za-z0-9._%-]+$/.test(segment)) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The folder name of a scope inside its company folder: `_company`, or `agent=planner,project=p1`. */
export function scopeFolderName(scope: MemoryScope): string {
  const parts: string[] = [];
  for (const field of memoryScopeFields) {
    if (field === 'companyId') continue;
    const value = scope[field];
    if (value !== undefined) parts.push(`${shortNames[field]}=${encodePathSegment(value)}`);
  }
  if (parts.length === 0) return companyWideFolder;
  const joined = parts.join(',');
  return joined.length > 160 ? `scope~${hashOf(joined)}` : joined;
}

/** The folder of a scope, relative to the root, with `/` separators. */
export function scopeFolder(scope: MemoryScope): string {
  return `${companiesFolder}/${encodePathSegment(scope.companyId)}/${scopeFolderName(scope)}`;
}

function refuse(relativePath: string, how = ''): never {
  throw new MemoryScopeViolationError({ message: `Refused a path outside the markdown root${how}: ${JSON.stringify(relativePath)}` });
}

const realRoots = new Map<string, string>();

/** The root with every symbolic link resolved, cached: it is asked on every file operation. */
function realRootOf(absoluteRoot: string): string {
  let real = realRoots.get(absoluteRoot);
  if (real === undefined) {
    real = realpathSync.native(absoluteRoot);
    if (realRoots.size > 100) realRoots.clear();
    realRoots.set(absoluteRoot, real);
  }
  return real;
}

/**
 * Checks that a path inside the root does not leave it through a symbolic link: the deepest part
 * of it that exists (the file itself, or the folder a write will create it in) must resolve to
 * a place inside the root's own resolved path. A link that stays inside the root is fine.
 */
function assertNoLinkOut(absoluteRoot: string, target: string, relativePath: string): void {
  let realRoot: string;
  try {
    realRoot = realRootOf(absoluteRoot);
  } catch (error) {
    // A root that does not exist yet has no links in it; its creation happens under it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (let current = target; ; ) {
    let real: string;
    try {
      real = realpathSync.native(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = dirname(current);
      if ((code === 'ENOENT' || code === 'ENOTDIR') && parent !== current) {
        current = parent;
        continue;
      }
      throw error;
    }
    if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : `${realRoot}${sep}`)) {
      refuse(relativePath, ' (through a symbolic link)');
    }
    return;
  }
}

/**
 * Resolves a root-relative path and checks that it stays inside the root, both as written and
 * once symbolic links are followed. This is the last line of defence behind
 * `encodePathSegment`: a path that would escape throws `MemoryScopeViolationError`, before
 * anything is read or written.
 */
export function resolveInsideRoot(root: string, relativePath: string): string {
  if (relativePath.includes('\u0000') || isAbsolute(relativePath)) refuse(relativePath);
  const absoluteRoot = resolve(root);
  const target = resolve(absoluteRoot, relativePath);
  const fromRoot = relative(absoluteRoot, target);
  if (fromRoot === '' || fromRoot.startsWith(`..${sep}`) || fromRoot === '..' || isAbsolute(fromRoot)) refuse(relativePath);
  assertNoLinkOut(absoluteRoot, target, relativePath);
  return target;
}

/**
 * The path of a file inside the state folder. A state folder (or file in it) that is a link
 * leading outside the root is refused like any other path, so the index, the jobs and the cursor
 * secret are never written elsewhere.
 */
export function statePath(root: string, ...names: string[]): string {
  const absoluteRoot = resolve(root);
  const path = join(absoluteRoot, stateFolder, ...names);
  assertNoLinkOut(absoluteRoot, path, [stateFolder, ...names].join('/'));
  return path;
}

/** A path relative to the root with `/` separators, as the index stores it. */
export function toRootRelative(root: string, absolutePath: string): string {
  return relative(resolve(root), absolutePath).split(sep).join('/');
}
