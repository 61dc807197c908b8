import { MemoryInvalidResponseError, type MemoryCaptureRequest, type MemoryCaptureResult, type MemoryExtractionJob, type MemoryWarning } from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0QueuedAddSchema } from './mem0-api-schemas';
import { toJobStatus } from './mem0-extraction-job-mapping';
import { assertNoReservedKeys, toStoredMetadata } from './mem0-metadata';
import { toMem0EntityIds } from './mem0-scope-mapping';
import { addVerbatim, toVerbatimEntityIds } from './mem0-verbatim-add';

function captureText(request: MemoryCaptureRequest, warnings: MemoryWarning[]): string {
  const { payload } = request;
  if (payload.text !== undefined && payload.text.trim() !== '') {
    if (payload.object !== undefined) {
      warnings.push({ type: 'unsupported', feature: 'payload.object', details: 'mem0 receives messages of text; the object was not sent, the text was.' });
    }
    return payload.text;
  }
  warnings.push({ type: 'compatibility', feature: 'payload.object', details: 'mem0 receives messages of text; the object was sent as JSON text.' });
  return JSON.stringify(payload.object);
}

/**
 * `capture`:
 * - `capture_residue` (the default) is `add` with `infer: true`: mem0 queues extraction and
 *   answers with an event id, which becomes a `queued` extraction job polled through
 *   `GET /v1/event/{id}/`. The records appear when the event succeeds.
 * - `capture_record` is `add` with `infer: false`: the payload is stored as one memory now.
 * The source, hook and caller metadata are stored in the metadata mem0 copies onto every
 * memory it extracts.
 */
export async function captureMem0(context: Mem0AdapterContext, request: MemoryCaptureRequest): Promise<MemoryCaptureResult> {
  assertNoReservedKeys(request.metadata, 'metadata', 'capture request');
  const warnings: MemoryWarning[] = [];
  if (request.payload.mimeType !== undefined && !request.payload.mimeType.startsWith('text/')) {
    warnings.push({ type: 'compatibility', feature: 'payload.mimeType', details: `Sent as text; the adapter does not map ${request.payload.mimeType} to mem0 image messages.` });
  }
  if (request.payload.metadata !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'payload.metadata', details: 'Only the request metadata is stored with the memories.' });
  }
  const text = captureText(request, warnings);
  const entityIds = toMem0EntityIds(request.scope);
  const metadata = toStoredMetadata({ scope: request.scope, metadata: request.metadata, source: request.source, hook: request.hook });
  if (request.mode === 'capture_record') {
    const { handles, usage } = await addVerbatim(context, toVerbatimEntityIds(request.scope, metadata), [text], metadata, 'capture');
    const [handle] = handles;
    if (handle === undefined) {
      throw new MemoryInvalidResponseError({ message: 'mem0 returned no memory for the captured record and none was found under its write key.', field: 'results' });
    }
    return { records: [handle], usage, warnings };
  }
  const submittedAt = new Date().toISOString();
  const { value, usage } = await context.call({ operation: 'capture (add, infer true)', repeatable: false }, mem0QueuedAddSchema, (client) =>
    client.add([{ role: context.settings.captureRole, content: text }], { ...entityIds, metadata, infer: true }),
  );
  const job: MemoryExtractionJob = { providerJobId: context.jobIds.issue(value.eventId, request.scope), status: toJobStatus(value.status), source: request.source, submittedAt };
  if (request.hook !== undefined) job.hookKind = request.hook.hookKind;
  return { jobs: [job], usage: [usage], warnings };
}
