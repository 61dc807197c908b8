import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
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
 * Turns any identifier into one safe path segment: readable identifiers stay as they are,
 * anything else is percent-encoded (so `/`, `\`, `..`, NUL and control characters can never
 * reach the file system), and a long result is cut and suffixed with a hash of the original.
 */
export function encodePathSegment(value: string): string {
  let encoded = readable.test(value)
    ? value
    : Array.from(value)
        .map((character) =>
          /^[A-Za-z0-9_-]$/.test(character)
            ? character
            : Array.from(Buffer.from(character, 'utf8'))
                .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
                .join(''),
        )
        .join('');
  if (encoded.length > longestReadableSegment) {
    encoded = `${encoded.slice(0, longestReadableSegment - 26)}~${hashOf(value)}`;
  }
  return encoded;
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

/**
 * Resolves a root-relative path and checks that it stays inside the root. This is the last
 * line of defence behind `encodePathSegment`: a path that would escape throws.
 */
export function resolveInsideRoot(root: string, relativePath: string): string {
  if (relativePath.includes('\u0000') || isAbsolute(relativePath)) {
    throw new MemoryScopeViolationError({ message: `Refused a path outside the markdown root: ${JSON.stringify(relativePath)}` });
  }
  const absoluteRoot = resolve(root);
  const target = resolve(absoluteRoot, relativePath);
  const fromRoot = relative(absoluteRoot, target);
  if (fromRoot === '' || fromRoot.startsWith(`..${sep}`) || fromRoot === '..' || isAbsolute(fromRoot)) {
    throw new MemoryScopeViolationError({ message: `Refused a path outside the markdown root: ${JSON.stringify(relativePath)}` });
  }
  return target;
}

/** The path of a file inside the state folder. */
export function statePath(root: string, ...names: string[]): string {
  return join(resolve(root), stateFolder, ...names);
}

/** A path relative to the root with `/` separators, as the index stores it. */
export function toRootRelative(root: string, absolutePath: string): string {
  return relative(resolve(root), absolutePath).split(sep).join('/');
}
