import { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import { createCursorCodec, defineMemoryAdapter, type MemoryAdapter } from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { createAgentCoreCall } from './agentcore-call';
import { agentCoreCapabilities } from './agentcore-capabilities';
import { captureAgentCore } from './agentcore-capture-operation';
import { correctAgentCoreRecord } from './agentcore-correct-operation';
import { listAgentCoreExtractionJobs, retryAgentCoreExtractionJob } from './agentcore-extraction-jobs';
import { forgetAgentCoreRecords } from './agentcore-forget-operation';
import { getAgentCoreRecord } from './agentcore-get-operations';
import { agentCoreProviderKey } from './agentcore-handle';
import { listAgentCoreRecords, queryAgentCoreRecords } from './agentcore-read-operations';
import { resolveAgentCoreSettings, type AgentCoreAdapterSettings, type ResolvedAgentCoreSettings } from './agentcore-settings';
import { upsertAgentCoreRecords } from './agentcore-write-operations';

const nodeVersionWarningVariable = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

function buildClient(settings: ResolvedAgentCoreSettings): BedrockAgentCoreClient {
  if (settings.client !== undefined) return settings.client;
  if (settings.silenceNodeVersionWarning) process.env[nodeVersionWarningVariable] = 'true';
  // The adapter's retry policy governs retries (Retry-After, jitter, the caller's bounds), so
  // the SDK makes one attempt per adapter attempt instead of multiplying them.
  return new BedrockAgentCoreClient({
    region: settings.region,
    maxAttempts: 1,
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
  });
}

/**
 * Creates the memplane adapter for AWS Bedrock AgentCore Memory.
 *
 * Settings are validated at once: a bad setting throws `MemoryValidationError` naming it, and
 * a missing region throws `MemoryConfigurationError`. The adapter goes through core
 * `defineMemoryAdapter`, which validates every request and result.
 */
export function createAgentCoreAdapter(settings: AgentCoreAdapterSettings): MemoryAdapter {
  const resolved = resolveAgentCoreSettings(settings);
  const context: AgentCoreAdapterContext = {
    client: buildClient(resolved),
    memoryId: resolved.memoryId,
    call: createAgentCoreCall(resolved),
    cursors: createCursorCodec(resolved.cursorSecret === undefined ? {} : { secret: resolved.cursorSecret }),
    sendNamespaceWithRecordCalls: resolved.sendNamespaceWithRecordCalls,
  };
  return defineMemoryAdapter({
    key: agentCoreProviderKey,
    capabilities: agentCoreCapabilities,
    capture: (request) => captureAgentCore(context, request),
    upsertRecords: (request) => upsertAgentCoreRecords(context, request),
    query: (request) => queryAgentCoreRecords(context, request),
    list: (request) => listAgentCoreRecords(context, request),
    get: (handle, scope) => getAgentCoreRecord(context, handle, scope),
    forget: (handles, scope) => forgetAgentCoreRecords(context, handles, scope),
    correct: (handle, patch, scope) => correctAgentCoreRecord(context, handle, patch, scope),
    listExtractionJobs: (scope, cursor) => listAgentCoreExtractionJobs(context, scope, cursor),
    retryExtractionJob: (providerJobId, scope) => retryAgentCoreExtractionJob(context, providerJobId, scope),
  });
}
