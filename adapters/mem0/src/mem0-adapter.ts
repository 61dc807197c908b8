import { createCursorCodec, defineMemoryAdapter, type MemoryAdapter } from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { createMem0Call } from './mem0-call';
import { mem0Capabilities } from './mem0-capabilities';
import { captureMem0 } from './mem0-capture-operation';
import { correctMem0Memory, forgetMem0Memories } from './mem0-change-operations';
import { createLazyMem0Client } from './mem0-client';
import { getMem0ExtractionJob, listMem0ExtractionJobs, retryMem0ExtractionJob } from './mem0-extraction-jobs';
import { mem0ProviderKey } from './mem0-handle';
import { createMem0JobIds } from './mem0-job-id';
import { listMem0Memories } from './mem0-list-operation';
import { profileMem0 } from './mem0-profile';
import { getMem0Memory, queryMem0Memories } from './mem0-read-operations';
import { resolveMem0Settings, type Mem0AdapterSettings } from './mem0-settings';
import { upsertMem0Records } from './mem0-write-operations';

/**
 * Creates the memplane adapter for the mem0 platform, around mem0ai's `MemoryClient`.
 *
 * Settings are validated at once: a bad setting throws `MemoryValidationError` naming it,
 * and a missing API key throws `MemoryConfigurationError`. Nothing else happens until the
 * first operation: then `mem0ai` is loaded with `MEM0_TELEMETRY=false` and the client is
 * created (its constructor pings `/v1/ping/`). The adapter goes through core
 * `defineMemoryAdapter`, which validates every request and result.
 */
export function createMem0Adapter(settings: Mem0AdapterSettings = {}): MemoryAdapter {
  const resolved = resolveMem0Settings(settings);
  const getClient = createLazyMem0Client({ apiKey: resolved.apiKey, host: resolved.baseURL, headers: resolved.headers, fetch: resolved.fetch });
  const context: Mem0AdapterContext = {
    call: createMem0Call(resolved, getClient),
    cursors: createCursorCodec(resolved.cursorSecret === undefined ? {} : { secret: resolved.cursorSecret }),
    jobIds: createMem0JobIds(resolved.cursorSecret),
    settings: resolved,
  };
  return defineMemoryAdapter({
    key: mem0ProviderKey,
    capabilities: mem0Capabilities,
    capture: (request) => captureMem0(context, request),
    upsertRecords: (request) => upsertMem0Records(context, request),
    query: (request) => queryMem0Memories(context, request),
    list: (request) => listMem0Memories(context, request),
    get: (handle, scope) => getMem0Memory(context, handle, scope),
    forget: (handles, scope) => forgetMem0Memories(context, handles, scope),
    correct: (handle, patch, scope) => correctMem0Memory(context, handle, patch, scope),
    profile: (scope) => profileMem0(context, scope),
    getExtractionJob: (providerJobId, scope) => getMem0ExtractionJob(context, providerJobId, scope),
    listExtractionJobs: (scope, cursor) => listMem0ExtractionJobs(context, scope, cursor),
    retryExtractionJob: (providerJobId, scope) => retryMem0ExtractionJob(context, providerJobId, scope),
  });
}
