import { createCursorCodec, defineMemoryAdapter, type MemoryAdapter } from '@memplane/core';
import Supermemory from 'supermemory';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { createSupermemoryCall } from './supermemory-call';
import { supermemoryCapabilities } from './supermemory-capabilities';
import { correctSupermemoryRecord, forgetSupermemoryRecords } from './supermemory-change-operations';
import { toSupermemoryContainerTag } from './supermemory-container-tag';
import { getSupermemoryExtractionJob, listSupermemoryExtractionJobs } from './supermemory-extraction-jobs';
import { supermemoryProviderKey } from './supermemory-handle';
import { createSupermemoryJobSigner } from './supermemory-job-signer';
import { listSupermemoryRecords } from './supermemory-list-operation';
import { getSupermemoryProfile } from './supermemory-profile';
import { getSupermemoryRecord, querySupermemory } from './supermemory-read-operations';
import { resolveSupermemorySettings, type SupermemoryAdapterSettings } from './supermemory-settings';
import { captureSupermemory, upsertSupermemoryRecords } from './supermemory-write-operations';

/**
 * Creates the memplane adapter for Supermemory, over the official `supermemory` SDK.
 *
 * Settings are validated at once: a bad setting throws `MemoryValidationError` naming it,
 * and a missing API key throws `MemoryConfigurationError`. The SDK client is built with
 * `maxRetries: 0`, the adapter's timeout, a late-bound fetch and logging off; retries are the
 * adapter's own bounded policy. Everything goes through core `defineMemoryAdapter`.
 */
export function createSupermemoryAdapter(settings: SupermemoryAdapterSettings = {}): MemoryAdapter {
  const resolved = resolveSupermemorySettings(settings);
  const client =
    resolved.client ??
    new Supermemory({
      apiKey: resolved.apiKey,
      baseURL: resolved.baseURL,
      maxRetries: 0,
      timeout: resolved.timeoutMs,
      fetch: resolved.fetch,
      logLevel: 'off',
    });
  const tags = new Map<string, string>();
  const context: SupermemoryAdapterContext = {
    client,
    call: createSupermemoryCall(resolved),
    cursors: createCursorCodec(resolved.cursorSecret === undefined ? {} : { secret: resolved.cursorSecret }),
    jobs: createSupermemoryJobSigner(resolved.cursorSecret),
    containerTagOf(companyId) {
      let tag = tags.get(companyId);
      if (tag === undefined) {
        tag = toSupermemoryContainerTag(companyId, resolved.containerTagPrefix);
        if (tags.size >= 1000) tags.clear();
        tags.set(companyId, tag);
      }
      return tag;
    },
    settings: resolved,
    now: Date.now,
  };
  return defineMemoryAdapter({
    key: supermemoryProviderKey,
    capabilities: supermemoryCapabilities,
    capture: (request) => captureSupermemory(context, request),
    upsertRecords: (request) => upsertSupermemoryRecords(context, request),
    query: (request) => querySupermemory(context, request),
    list: (request) => listSupermemoryRecords(context, request),
    get: (handle, scope) => getSupermemoryRecord(context, handle, scope),
    forget: (handles, scope) => forgetSupermemoryRecords(context, handles, scope),
    correct: (handle, patch, scope) => correctSupermemoryRecord(context, handle, patch, scope),
    profile: (scope) => getSupermemoryProfile(context, scope),
    getExtractionJob: (providerJobId, scope) => getSupermemoryExtractionJob(context, providerJobId, scope),
    listExtractionJobs: (scope, cursor) => listSupermemoryExtractionJobs(context, scope, cursor),
  });
}
