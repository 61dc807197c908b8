import {
  normalizeScope,
  type MemoryCaptureRequest,
  type MemoryCaptureResult,
  type MemorySourcePayload,
  type MemoryWarning,
} from '@memplane/core';
import { extractionFailureInForce } from './memory-faults';
import type { MemoryAdapterContext } from './memory-settings';
import { handleOf, toJob } from './memory-snippet';

/**
 * The text the in-memory adapter keeps from a payload. It is text-only (`multimodal: false`):
 * the payload text when it has any, otherwise the JSON text of `payload.object`. Whatever is
 * dropped or mapped lossily is reported as a warning.
 */
function payloadText(payload: MemorySourcePayload): { text: string; warnings: MemoryWarning[] } {
  const warnings: MemoryWarning[] = [];
  const hasText = payload.text !== undefined && payload.text.trim() !== '';
  if (payload.object !== undefined) {
    warnings.push(
      hasText
        ? { type: 'unsupported', feature: 'payload.object', details: 'The object was ignored; the payload text was kept.' }
        : { type: 'compatibility', feature: 'payload.object', details: 'The adapter is text-only; the object was kept as its JSON text.' },
    );
  }
  if (payload.metadata !== undefined) {
    warnings.push({
      type: 'unsupported',
      feature: 'payload.metadata',
      details: 'Payload metadata is not stored; request metadata is.',
    });
  }
  const mimeType = payload.mimeType;
  if (mimeType !== undefined && !mimeType.startsWith('text/') && mimeType !== 'application/json') {
    warnings.push({ type: 'compatibility', feature: 'payload.mimeType', details: `Kept as plain text, not as ${mimeType}.` });
  }
  const text = hasText ? (payload.text as string) : JSON.stringify(payload.object ?? {});
  return { text, warnings };
}

/**
 * `capture`. In `capture_record` mode the payload becomes one record now (deduplicated like
 * `upsertRecords`). In `capture_residue` mode (the default) it becomes a queued extraction
 * job that `getExtractionJob` polls drive to completion.
 */
export function capture(context: MemoryAdapterContext, request: MemoryCaptureRequest): MemoryCaptureResult {
  const { text, warnings } = payloadText(request.payload);
  const scope = normalizeScope(request.scope);
  const at = context.now();
  if (request.mode === 'capture_record') {
    const record = context.state.writeRecord({ scope, text, source: request.source, metadata: request.metadata }, at);
    return { records: [handleOf(record)], warnings };
  }
  const job = context.state.addJob({
    scope,
    text,
    source: { ...request.source },
    ...(request.hook === undefined ? {} : { hookKind: request.hook.hookKind }),
    ...(request.metadata === undefined ? {} : { metadata: structuredClone(request.metadata) }),
    submittedAt: at,
    status: 'queued',
    polls: 0,
    failOnRun: extractionFailureInForce(context.faults),
  });
  return { jobs: [toJob(job)], warnings };
}
