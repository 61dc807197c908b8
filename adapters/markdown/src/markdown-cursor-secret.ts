import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFileAtomically } from './markdown-atomic-write';
import { fileConfigurationError } from './markdown-errors';
import { statePath } from './markdown-paths';
import { privateFileMode, tightenFileMode } from './markdown-private-file';

const secretPattern = /^[0-9a-f]{64}$/i;

/** What the file holds: a secret, nothing (missing), or something damaged. */
function readSecret(path: string): Buffer | 'missing' | 'damaged' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    // A folder in the way or a missing permission is not ours to repair.
    throw fileConfigurationError(path, `the cursor secret cannot be read (${code ?? 'unknown error'}); fix the file or pass settings.cursorSecret.`, error);
  }
  const trimmed = text.trim();
  return secretPattern.test(trimmed) ? Buffer.from(trimmed, 'hex') : 'damaged';
}

/**
 * The cursor secret shared by every process over a root, in `.memplane/cursor-secret` (mode 0600;
 * an existing file readable by the group or others is tightened to the owner alone).
 *
 * A valid file is read without a lock. A missing or damaged one (empty, a line break, not 64 hex
 * characters: what a crash or a full disk leaves) is created or replaced under the write lock
 * `underLock` provides, after reading it again, so two processes starting together agree on one
 * secret. The new file is written atomically, so nobody ever reads a half-written secret.
 * Replacing a damaged secret invalidates the cursors signed with the old one: they are refused as
 * tampered (`InvalidCursorError`), and the caller starts its listing again.
 */
export function loadCursorSecret(root: string, underLock: <Result>(work: () => Result) => Result): Buffer {
  const path = statePath(root, 'cursor-secret');
  const first = readSecret(path);
  if (typeof first !== 'string') {
    tightenFileMode(path);
    return first;
  }
  return underLock(() => {
    const again = readSecret(path);
    if (typeof again !== 'string') return again;
    const secret = randomBytes(32);
    writeFileAtomically(path, secret.toString('hex'), privateFileMode);
    return secret;
  });
}
