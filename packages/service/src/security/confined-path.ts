import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

const inside = (folder: string, path: string) => {
  const between = relative(folder, path);
  return between === '' || (!between.startsWith(`..${sep}`) && between !== '..' && !isAbsolute(between));
};

/**
 * Resolves `configured` (relative to `folder`, or absolute) and proves it stays in `folder`:
 * lexically, and through the real path of every ancestor that exists, so a symbolic link (of
 * the path itself or of any folder on the way) cannot lead out of it. The folder is created if
 * it is missing, so its own real path can be taken. Returns the path, or why it was refused.
 */
export function confinePath(folder: string, configured: string): { path: string } | { refused: string } {
  const path = resolve(folder, configured);
  if (!inside(folder, path)) return { refused: "must stay inside the company's own folder under the data directory" };
  mkdirSync(folder, { recursive: true });
  const realFolder = realpathSync(folder);
  let ancestor = folder;
  for (const segment of ['', ...relative(folder, path).split(sep).filter((part) => part !== '')]) {
    ancestor = segment === '' ? ancestor : join(ancestor, segment);
    let real: string;
    try {
      real = realpathSync(ancestor);
    } catch {
      // Nothing there yet: nothing below it exists either. A dangling link is refused: its
      // target could be created later, outside the folder.
      if (!isLink(ancestor)) break;
      return { refused: 'must not pass through a symbolic link that cannot be followed' };
    }
    if (!inside(realFolder, real)) return { refused: "must not pass through a symbolic link that leads out of the company's folder" };
  }
  return { path };
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
