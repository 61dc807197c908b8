import type { MemoryScope, MemorySourceRef } from '../api/types';
import { backlinksOf } from '../backlinks';
import { useInspector } from '../context';
import { describeSource } from '../labels';

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
