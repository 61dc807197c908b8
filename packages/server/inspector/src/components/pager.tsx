import { useCallback, useState } from 'react';

/** Cursor paging: the cursors of the pages seen, so Previous goes back without a server-side offset. */
export function useCursorPages(resetKey: string): {
  cursor: string | undefined;
  pageNumber: number;
  next: (cursor: string) => void;
  previous: () => void;
  first: () => void;
} {
  const [state, setState] = useState<{ key: string; stack: Array<string | undefined> }>({ key: resetKey, stack: [undefined] });
  // New filters start from the first page.
  const stack = state.key === resetKey ? state.stack : [undefined];
  if (state.key !== resetKey) setState({ key: resetKey, stack });
  return {
    cursor: stack[stack.length - 1],
    pageNumber: stack.length,
    next: useCallback((cursor: string) => setState((current) => ({ key: current.key, stack: [...current.stack, cursor] })), []),
    previous: useCallback(() => setState((current) => ({ key: current.key, stack: current.stack.length > 1 ? current.stack.slice(0, -1) : current.stack })), []),
    first: useCallback(() => setState((current) => ({ key: current.key, stack: [undefined] })), []),
  };
}

/** Previous / page n / Next, for a listing paged by cursor. */
export function Pager(props: { label: string; pageNumber: number; nextCursor: string | undefined; onNext: (cursor: string) => void; onPrevious: () => void }) {
  return (
    <nav className="pager" aria-label={`${props.label} pages`}>
      <button type="button" onClick={props.onPrevious} disabled={props.pageNumber <= 1}>
        Previous page
      </button>
      <span aria-live="polite">Page {props.pageNumber}</span>
      <button type="button" onClick={() => props.nextCursor !== undefined && props.onNext(props.nextCursor)} disabled={props.nextCursor === undefined}>
        Next page
      </button>
    </nav>
  );
}
