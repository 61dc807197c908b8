import { useCallback, useEffect, useRef, useState } from 'react';

/** The state of one load. */
export interface AsyncState<Value> {
  data: Value | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs a load when its keys change and keeps the last answer. An answer that arrives after a
 * newer load started is dropped, so fast filter changes never show stale rows.
 */
export function useAsync<Value>(load: () => Promise<Value>, keys: readonly unknown[]): AsyncState<Value> {
  const [state, setState] = useState<{ data: Value | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const generation = useRef(0);
  const [tick, setTick] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const run = useCallback(load, keys);
  useEffect(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    run().then(
      (data) => mine === generation.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => mine === generation.current && setState({ data: undefined, error, loading: false }),
    );
  }, [run, tick]);
  return { ...state, reload: () => setTick((value) => value + 1) };
}
