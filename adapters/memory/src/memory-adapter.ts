import { defineMemoryAdapter, type MemoryAdapter, type MemoryAdapterCapabilities } from '@memplane/core';
import { capture } from './memory-capture';
import { getExtractionJob, listExtractionJobs, retryExtractionJob } from './memory-extraction';
import { createOperationRunner } from './memory-operation-runner';
import { explain, query } from './memory-query';
import { correct, forget, get, list, profile, upsertRecords } from './memory-record-operations';
import { resolveMemoryAdapterSettings, type MemoryAdapterSettings } from './memory-settings';
import { memoryAdapterKey } from './memory-snippet';

/**
 * What the in-memory adapter can do: every optional surface of the contract except native
 * multimodal capture (object payloads are kept as their JSON text) and a provider-native
 * browse surface (there is no provider beyond `list`).
 */
export const memoryAdapterCapabilities: Readonly<MemoryAdapterCapabilities> = Object.freeze({
  profile: true,
  correction: true,
  multimodal: false,
  providerManagedExtraction: true,
  asyncExtraction: true,
  providerNativeBrowse: false,
  listExtractionJobs: true,
  retryExtractionJob: true,
  explain: true,
  metadataFilter: true,
});

/**
 * Creates the in-memory reference adapter (key `memory`). It implements the whole contract
 * and every optional surface deterministically: no network, nothing running in the background
 * (extraction jobs advance when polled), no randomness beyond the default cursor secret. With
 * a fixed `now` and `cursorSecret`, the same calls give the same ids, timestamps, scores and
 * cursors.
 *
 * Throws `MemoryValidationError` naming the bad setting when `settings` are invalid.
 *
 * @example
 * ```ts
 * const memory = createMemoryAdapter();
 * const scope = { companyId: 'acme', agentId: 'planner' };
 * await memory.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] });
 * const { snippets } = await memory.query({ bindingKey: 'default', scope, query: 'when do deploys happen?' });
 * ```
 */
export function createMemoryAdapter(settings: MemoryAdapterSettings = {}): MemoryAdapter {
  const context = resolveMemoryAdapterSettings(settings);
  const { guarded, measured } = createOperationRunner(context);

  return defineMemoryAdapter({
    key: memoryAdapterKey,
    capabilities: { ...memoryAdapterCapabilities },
    capture: (request) => measured('capture', () => capture(context, request)),
    upsertRecords: (request) => measured('upsertRecords', () => upsertRecords(context, request)),
    query: (request) => measured('query', () => query(context, request)),
    list: (request) => measured('list', () => list(context, request)),
    get: (handle, scope) => guarded('get', () => get(context, handle, scope)),
    forget: (handles, scope) => measured('forget', () => forget(context, handles, scope)),
    correct: (handle, patch, scope) => measured('correct', () => correct(context, handle, patch, scope)),
    profile: (scope) => measured('profile', () => profile(context, scope)),
    getExtractionJob: (jobId, scope) => measured('getExtractionJob', () => getExtractionJob(context, jobId, scope)),
    listExtractionJobs: (scope, cursor) => measured('listExtractionJobs', () => listExtractionJobs(context, scope, cursor)),
    retryExtractionJob: (jobId, scope) => measured('retryExtractionJob', () => retryExtractionJob(context, jobId, scope)),
    explain: (result, scope) => measured('explain', () => explain(context, result, scope)),
  });
}
