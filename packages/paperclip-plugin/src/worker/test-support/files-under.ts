import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every file below a folder read as one text, for tests that grep what the worker left on disk
 * (a forgotten text, another company's memory, a secret). A folder that does not exist reads as
 * empty. `latin1` reads binary files (SQLite) byte for byte.
 */
export async function filesUnder(folder: string, encoding: 'utf8' | 'latin1' = 'utf8'): Promise<string> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const texts = await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => readFile(join(entry.parentPath, entry.name), encoding)));
  return texts.join('\n');
}
