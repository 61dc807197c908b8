import type { RecordedCall } from '@memplane/test-server';

const uuidPattern = /^(mem-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function normalize(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => normalize(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, normalize(item, name)]));
  }
  if (typeof value === 'string' && uuidPattern.test(value)) return value.startsWith('mem-') ? 'mem-<uuid>' : '<uuid>';
  if (typeof value === 'number' && (key === 'timestamp' || key === 'eventTimestamp')) return '<epoch seconds>';
  return value;
}

/**
 * The JSON bodies of the recorded AgentCore calls whose path ends with `pathEnd` (test-only),
 * with the values that change on every run (client tokens, record ids, timestamps) replaced by
 * placeholders, so request-body snapshots pin everything else.
 */
export function recordedBodies(calls: ReadonlyArray<RecordedCall>, method: string, pathEnd: RegExp): unknown[] {
  return calls.filter((call) => call.method === method && pathEnd.test(call.pathname)).map((call) => normalize(call.bodyJson));
}

/** The recorded AgentCore calls as `METHOD path?query`, in order (test-only). */
export function recordedRoutes(calls: ReadonlyArray<RecordedCall>): string[] {
  return calls.map((call) => `${call.method} ${decodeURIComponent(new URL(call.url).pathname)}${new URL(call.url).search}`);
}
