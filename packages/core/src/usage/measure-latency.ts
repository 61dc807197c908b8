import { performance } from 'node:perf_hooks';

/** Runs `operation` and returns its value with the measured wall-clock time in milliseconds. */
export async function measureLatency<Value>(
  operation: () => Promise<Value>,
): Promise<{ value: Value; latencyMs: number }> {
  const started = performance.now();
  const value = await operation();
  return { value, latencyMs: performance.now() - started };
}
