import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

async function problemWith(path: string): Promise<string | undefined> {
  const target = await stat(path).catch(() => undefined);
  if (target !== undefined) {
    if (target.isDirectory()) return 'is a folder';
    return (await access(path, constants.W_OK).then(() => true, () => false)) ? undefined : 'is not writable';
  }
  const folder = dirname(path);
  const parent = await stat(folder).catch(() => undefined);
  if (parent === undefined) return `is in a folder that does not exist (${folder})`;
  if (!parent.isDirectory()) return `is below ${folder}, which is not a folder`;
  return (await access(folder, constants.W_OK).then(() => true, () => false)) ? undefined : `is in a folder that is not writable (${folder})`;
}

/**
 * Why the report file `path` (given to `option`) cannot be written, or undefined when it can.
 * Checked before any rule runs, without creating anything, so a bad path fails in a moment
 * instead of after the whole suite.
 */
export async function outputPathProblem(option: string, path: string): Promise<string | undefined> {
  const absolute = resolve(path);
  const problem = await problemWith(absolute);
  return problem === undefined ? undefined : `${option} ${path}: the report file ${problem}.`;
}
