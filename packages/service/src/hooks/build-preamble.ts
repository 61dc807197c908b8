import type { MemoryContextBundle, MemorySnippet, MemorySourceRef } from '@memplane/core';
import type { MemoryHydrationLimits } from '../service/memory-service-settings';

/** The preamble and what went into it. */
export interface BuiltPreamble {
  /** Ready to put in front of the agent's prompt; empty when nothing was recalled. */
  preamble: string;
  /** The snippets the preamble shows, in order. */
  snippets: MemorySnippet[];
  /** Whether snippets or characters were left out to keep within the caps. */
  truncated: boolean;
}

/** The header of every preamble. Recalled memory is context to weigh, not instructions to follow. */
export const preambleHeader = '## Remembered context (advisory)';

function cut(text: string, maximum: number): string {
  // One line per snippet: recalled text cannot open headings or fake new sections.
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maximum ? flat : `${flat.slice(0, Math.max(0, maximum - 1)).trimEnd()}…`;
}

function sourceLabel(source: MemorySourceRef | undefined): string {
  if (source === undefined) return '';
  const parts: string[] = [source.kind];
  if (source.issueId !== undefined) parts.push(`issue ${source.issueId}`);
  if (source.runId !== undefined) parts.push(`run ${source.runId}`);
  if (source.documentKey !== undefined) parts.push(`document ${source.documentKey}`);
  return ` (${parts.join(', ')})`;
}

/** Builds the preamble of a hydration within the caps on snippets and characters. */
export function buildPreamble(bundle: MemoryContextBundle, limits: MemoryHydrationLimits): BuiltPreamble {
  const lines: string[] = [preambleHeader];
  let length = preambleHeader.length;
  let truncated = false;
  const fits = (line: string) => length + 1 + line.length <= limits.maxCharacters;

  if (bundle.profileSummary !== undefined && bundle.profileSummary.trim() !== '') {
    const line = `Profile: ${cut(bundle.profileSummary, limits.maxSnippetCharacters)}`;
    if (fits(line)) {
      lines.push(line);
      length += 1 + line.length;
    } else {
      truncated = true;
    }
  }
  const shown: MemorySnippet[] = [];
  for (const snippet of bundle.snippets) {
    if (shown.length >= limits.maxSnippets) {
      truncated = true;
      break;
    }
    const text = cut(snippet.text, limits.maxSnippetCharacters);
    if (text !== snippet.text.replace(/\s+/g, ' ').trim()) truncated = true;
    const line = `- ${text}${sourceLabel(snippet.source)}`;
    if (!fits(line)) {
      truncated = true;
      break;
    }
    lines.push(line);
    length += 1 + line.length;
    shown.push(snippet);
  }
  if (lines.length === 1) return { preamble: '', snippets: [], truncated };
  return { preamble: lines.join('\n'), snippets: shown, truncated };
}
