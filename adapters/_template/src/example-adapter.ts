import { createCursorCodec, defineMemoryAdapter, type MemoryAdapter } from '@memplane/core';
import type { ExampleAdapterContext } from './example-adapter-context';
import { createExampleCall } from './example-call';
import { exampleCapabilities } from './example-capabilities';
import { correctExampleRecord, forgetExampleRecords } from './example-change-operations';
import { ExampleClient } from './example-client';
import { exampleProviderKey } from './example-handle';
import { getExampleRecord, listExampleRecords, queryExampleRecords } from './example-read-operations';
import { resolveExampleSettings, type ExampleAdapterSettings } from './example-settings';
import { captureExampleRecord, upsertExampleRecords } from './example-write-operations';

/**
 * Creates the memplane adapter for the Example API.
 *
 * Settings are validated at once: a bad setting throws `MemoryValidationError` naming it,
 * and a missing API key throws `MemoryConfigurationError`. The adapter goes through core
 * `defineMemoryAdapter`, which validates every request and result.
 */
export function createExampleAdapter(settings: ExampleAdapterSettings = {}): MemoryAdapter {
  const resolved = resolveExampleSettings(settings);
  const context: ExampleAdapterContext = {
    client: new ExampleClient({ apiKey: resolved.apiKey, baseURL: resolved.baseURL, fetch: resolved.fetch }),
    call: createExampleCall(resolved),
    cursors: createCursorCodec(resolved.cursorSecret === undefined ? {} : { secret: resolved.cursorSecret }),
  };
  return defineMemoryAdapter({
    key: exampleProviderKey,
    capabilities: exampleCapabilities,
    capture: (request) => captureExampleRecord(context, request),
    upsertRecords: (request) => upsertExampleRecords(context, request),
    query: (request) => queryExampleRecords(context, request),
    list: (request) => listExampleRecords(context, request),
    get: (handle, scope) => getExampleRecord(context, handle, scope),
    forget: (handles, scope) => forgetExampleRecords(context, handles, scope),
    correct: (handle, patch, scope) => correctExampleRecord(context, handle, patch, scope),
  });
}
