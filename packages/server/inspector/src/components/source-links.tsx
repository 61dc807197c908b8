import type { MemoryScope, MemorySourceRef } from '../api/types';
import { backlinksOf } from '../backlinks';
import { useInspector } from '../context';

/** Describes a source in words, such as `issue_comment · issue ISS-1 · comment c-9`. */
export function describeSource(source: MemorySourceRef | undefined): string {
  if (source === undefined) return '—';
  const parts: string[] = [source.kind];
  if (source.issueId !== undefined) parts.push(`issue ${source.issueId}`);
  if (source.commentId !== undefined) parts.push(`comment ${source.commentId}`);
  if (source.documentKey !== undefined) parts.push(`document ${source.documentKey}`);
  if (source.runId !== undefined) parts.push(`run ${source.runId}`);
  if (source.activityId !== undefined) parts.push(`activity ${source.activityId}`);
  if (source.externalRef !== undefined) parts.push(source.externalRef);
  return parts.join(' · ');
}

/** A source and its backlinks (opened in a new tab, with no referrer and no opener). */
export function SourceLinks({ source, scope }: { source: MemorySourceRef | undefined; scope?: Partial<MemoryScope> | undefined }) {
  const { templates } = useInspector();
  const links = backlinksOf(source, scope, templates, window.location.origin);
  return (
    <span className="source">
      <span>{describeSource(source)}</span>
      {links.map((link) => (
        <a key={link.href} className="backlink" href={link.href} target="_blank" rel="noopener noreferrer">
          Open {link.label}
        </a>
      ))}
    </span>
  );
}
