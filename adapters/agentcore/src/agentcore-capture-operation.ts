import { randomUUID } from 'node:crypto';
import { CreateEventCommand, type PayloadType } from '@aws-sdk/client-bedrock-agentcore';
import {
  MemoryApiCallError,
  type MemoryCaptureRequest,
  type MemoryCaptureResult,
  type MemoryWarning,
} from '@memplane/core';
import type { AgentCoreAdapterContext } from './agentcore-adapter-context';
import { agentCoreEventResultSchema } from './agentcore-api-schemas';
import { toEventHandle } from './agentcore-handle';
import { maximumMetadataEntries, packProvenanceWithinLimit, type StoredProvenance } from './agentcore-provenance';
import { encodeScope, hashedScopeWarnings, toActorId, toScopeMetadata, toSessionId } from './agentcore-scope-mapping';
import { upsertAgentCoreRecords, type CaptureDetails } from './agentcore-write-operations';

function captureDetails(request: MemoryCaptureRequest): CaptureDetails {
  const details: CaptureDetails = {};
  if (request.hook !== undefined) details.h = request.hook;
  if (request.payload.mimeType !== undefined) details.t = request.payload.mimeType;
  if (request.payload.metadata !== undefined) details.pm = request.payload.metadata;
  return details;
}

/**
 * `capture_record`: the payload becomes one curated record (`BatchCreateMemoryRecords`), the
 * object as JSON text when there is no text. The record is listed and queryable at once.
 */
async function captureRecord(context: AgentCoreAdapterContext, request: MemoryCaptureRequest): Promise<MemoryCaptureResult> {
  const warnings: MemoryWarning[] = [];
  const { payload } = request;
  let text = payload.text;
  if (text === undefined || text.trim() === '') {
    warnings.push({ type: 'compatibility', feature: 'payload.object', details: 'A record holds text only; the object was stored as JSON text.' });
    text = JSON.stringify(payload.object);
  } else if (payload.object !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'payload.object', details: 'A record holds text only; the object was not stored (capture_residue stores it as a blob event).' });
  }
  const written = await upsertAgentCoreRecords(
    context,
    {
      bindingKey: request.bindingKey,
      scope: request.scope,
      source: request.source,
      records: [{ text, ...(request.metadata === undefined ? {} : { metadata: request.metadata }) }],
    },
    captureDetails(request),
  );
  const [failure] = written.failures ?? [];
  if (failure !== undefined) {
    throw new MemoryApiCallError({ message: `AgentCore rejected the captured record: ${failure.message}`, isRetryable: failure.isRetryable ?? false });
  }
  return { records: written.records ?? [], usage: written.usage ?? [], warnings: [...warnings, ...(written.warnings ?? [])] };
}

/**
 * The event payload: the text as one conversational turn (an agent's run output as
 * `ASSISTANT`, anything else a person or agent wrote as `USER`), and the object as a blob.
 */
function toPayload(request: MemoryCaptureRequest, warnings: MemoryWarning[]): PayloadType[] {
  const payload: PayloadType[] = [];
  const { text, object } = request.payload;
  if (text !== undefined && text.trim() !== '') {
    payload.push({ conversational: { role: request.source.kind === 'run' ? 'ASSISTANT' : 'USER', content: { text } } });
  }
  if (object !== undefined) {
    // Core validated the object as JSON, which is what an AgentCore document holds.
    payload.push({ blob: object as PayloadType.BlobMember['blob'] });
    warnings.push({ type: 'compatibility', feature: 'payload.object', details: 'The object was stored as a blob payload; AgentCore strategies extract from conversational payloads and may not extract from it.' });
  }
  return payload;
}

/**
 * `capture_residue` (the default): `CreateEventCommand` under the scope's actor
 * (`c/{company}/a/{agent}`) and session (`k-{sessionKey}`, else `r-{runId}`), with the
 * other scope fields and the provenance as event metadata. The memory's strategies extract
 * long-term records from it asynchronously; AgentCore reports no per-event status, so no job
 * is returned. The result's one handle points at the event: get reads it, forget deletes it.
 */
async function captureResidue(context: AgentCoreAdapterContext, request: MemoryCaptureRequest): Promise<MemoryCaptureResult> {
  const encoded = encodeScope(request.scope);
  const warnings: MemoryWarning[] = hashedScopeWarnings(request.scope, encoded);
  const scopeMetadata = toScopeMetadata(encoded);
  const provenance: StoredProvenance = { s: request.source, ...captureDetails(request) };
  if (request.metadata !== undefined) provenance.m = request.metadata;
  const metadata = {
    ...scopeMetadata,
    ...packProvenanceWithinLimit(provenance, maximumMetadataEntries - Object.keys(scopeMetadata).length, 'capture', warnings),
  };
  const sessionId = toSessionId(encoded);
  const clientToken = randomUUID();
  const input = {
    memoryId: context.memoryId,
    actorId: toActorId(encoded),
    ...(sessionId === undefined ? {} : { sessionId }),
    eventTimestamp: request.hook === undefined ? new Date() : new Date(request.hook.triggeredAt),
    payload: toPayload(request, warnings),
    metadata,
    clientToken,
  };
  const { value, usage } = await context.call({ operation: 'CreateEvent' }, agentCoreEventResultSchema, (abortSignal) =>
    context.client.send(new CreateEventCommand(input), { abortSignal }),
  );
  return { records: [toEventHandle(value.event)], usage: [usage], warnings };
}

/** `capture`: `capture_residue` stores an event for the strategies; `capture_record` stores one record. */
export async function captureAgentCore(context: AgentCoreAdapterContext, request: MemoryCaptureRequest): Promise<MemoryCaptureResult> {
  return (request.mode ?? 'capture_residue') === 'capture_record' ? captureRecord(context, request) : captureResidue(context, request);
}
