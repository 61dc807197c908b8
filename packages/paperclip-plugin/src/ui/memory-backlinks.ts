import type { UiSource } from '../memory-ui-contract';

/** A link back to where a memory came from, as a host path (the host adds the company prefix). */
export interface MemoryBacklink {
  label: string;
  path: string;
}

// Host paths are built from ids the worker returned; encoding keeps an id from reshaping the
// path, and `.` or `..` (which encodeURIComponent leaves alone) would climb out of it.
const part = (value: string) => (/^\.{1,2}$/.test(value) ? value.replace(/\./g, '%2E') : encodeURIComponent(value));

/**
 * The backlinks of a source: its issue, and the comment or document on it. A run has no stable
 * host route a plugin can link to, so it is shown as text, not linked.
 */
export function backlinksOf(source: UiSource | undefined): MemoryBacklink[] {
  if (source?.issueId === undefined) return [];
  const issuePath = `/issues/${part(source.issueId)}`;
  const links: MemoryBacklink[] = [{ label: 'issue', path: issuePath }];
  if (source.commentId !== undefined) links.push({ label: 'comment', path: `${issuePath}#comment-${part(source.commentId)}` });
  if (source.documentKey !== undefined) links.push({ label: `document ${source.documentKey}`, path: `${issuePath}#document-${part(source.documentKey)}` });
  return links;
}
