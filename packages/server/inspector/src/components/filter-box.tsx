import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A filter form that folds away on a narrow window, so the list is on the first screen; it
 * starts open on a wide window or when filters are set. A `<details>`, so Enter and Space open it.
 */
export function FilterBox({ title, active, children }: { title: string; active: boolean; children: ReactNode }) {
  const box = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (box.current !== null) box.current.open = active || window.matchMedia('(min-width: 900px)').matches;
    // Only when the page opens: afterwards the person decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <details ref={box} className="filter-box">
      <summary>{title}</summary>
      {children}
    </details>
  );
}
