import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryPrefix } from './markdown-atomic-write';
import type { FileStamp } from './markdown-index';
import { companiesFolder, resourcesFolder } from './markdown-paths';

/** The stamp of a file now, or undefined when it does not exist. */
export function stampOf(absolutePath: string): FileStamp | undefined {
  try {
    const stat = statSync(absolutePath, { bigint: true });
    return { size: Number(stat.size), mtimeNs: stat.mtimeNs.toString(), inode: stat.ino.toString(), ctimeNs: stat.ctimeNs.toString() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Whether two stamps describe the same file content. The change time counts: an edit can keep
 * the size, the modification time and the inode (`cp -p` over the file, a tool that restores
 * times), but no tool can set the change time back.
 */
export function sameStamp(left: FileStamp | undefined, right: FileStamp | undefined): boolean {
  return (
    left !== undefined &&
    right !== undefined &&
    left.size === right.size &&
    left.mtimeNs === right.mtimeNs &&
    left.inode === right.inode &&
    left.ctimeNs === right.ctimeNs
  );
}

/** Whether a root-relative path holds resources rather than records. */
export function fileKindOf(relativePath: string): 'records' | 'resources' {
  return relativePath.split('/').at(-2) === resourcesFolder ? 'resources' : 'records';
}

/**
 * Lists the markdown files under `companies/`, root-relative, skipping hidden files and folders
 * (temporary files of interrupted writes among them). With `removeTemporary`, leftover temporary
 * files are deleted: only a writer holding the lock creates them, so any found then are garbage.
 */
export function scanMarkdownFiles(root: string, removeTemporary: boolean): Map<string, FileStamp> {
  const found = new Map<string, FileStamp>();
  const walk = (relative: string) => {
    let entries;
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.name.startsWith('.')) {
        if (removeTemporary && entry.name.startsWith(temporaryPrefix) && entry.isFile()) rmSync(join(root, child), { force: true });
        continue;
      }
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && entry.name.endsWith('.md')) {
        const stamp = stampOf(join(root, child));
        if (stamp !== undefined) found.set(child, stamp);
      }
    }
  };
  walk(companiesFolder);
  return found;
}
