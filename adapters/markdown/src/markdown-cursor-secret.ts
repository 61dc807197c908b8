import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { statePath } from './markdown-paths';

/**
 * The cursor secret shared by every process over a root: created once (exclusively, so two
 * processes starting together agree) in `.memplane/cursor-secret`, readable by the owner only.
 */
export function loadCursorSecret(root: string): Buffer {
  const path = statePath(root, 'cursor-secret');
  try {
    const descriptor = openSync(path, 'wx', 0o600);
    try {
      writeSync(descriptor, randomBytes(32).toString('hex'));
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (;;) {
    const text = readFileSync(path, 'utf8').trim();
    // Another process may be between creating the file and writing it.
    if (text.length === 64) return Buffer.from(text, 'hex');
  }
}
