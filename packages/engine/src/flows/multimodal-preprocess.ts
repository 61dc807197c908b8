import type { JsonValue } from '@memplane/core';
import type { EngineServices } from '../engine/engine-services';
import type { PipelineStep } from '../pipeline/pipeline-step';
import { describeModel, type ResolvedLlmProfile } from '../profiles/llm-profiles';
import { generateStructured, type ModelFile } from '../profiles/model-calls';
import type { MediaSpan, ResourceRow, ScopeValues } from '../store/engine-store-rows';
import { mediaMetadataKey, unprocessedHash, type MemorizeInput } from './memorize-input';
import { mediaKindOf, normalizeMediaType, pdfPageBound, resourceBytes, type MediaKind } from './multimodal-input';
import { checkMediaAnswer, mediaInstructions, mediaSegmentsSchema, segmentsFromAnswer } from './multimodal-segments';

type Step = PipelineStep<EngineServices>;

/** Why a binary or URI-only resource was kept without text. */
export type UnprocessedReason =
  /** The `preprocess` profile has no model (the zero-config path). */
  | 'no_model'
  /** The profile's `mediaInputs` do not name the file's media kind. */
  | 'media_not_declared'
  /** A URI-only resource without an accepted `mimeType`: the engine cannot tell what it is. */
  | 'media_type_unknown'
  /** A URI-only resource whose profile does not set `mediaUrls`, or whose URI is not https. */
  | 'uri_not_allowed';

/**
 * A memorize that succeeded but did less than asked. `media.unprocessed`: the resource (a file or
 * a URI) was kept with no text, so no item came from it; memorize the same input again once a
 * profile can read it, and it is processed (the unprocessed row is replaced).
 */
export interface MemorizeWarning {
  readonly code: 'media.unprocessed';
  readonly reason: UnprocessedReason;
  readonly message: string;
}

type Plan = { readonly kind: MediaKind; readonly files: ModelFile[]; readonly pageBound: number | undefined } | { readonly kind: MediaKind | undefined; readonly reason: UnprocessedReason; readonly message: string };

function plan(input: Extract<MemorizeInput, { type: 'resource' }>, profile: ResolvedLlmProfile | undefined): Plan {
  const kind = mediaKindOf(input.mimeType);
  if (input.data === undefined && kind === undefined) {
    return { kind, reason: 'media_type_unknown', message: 'URI-only resource kept unprocessed: no accepted mimeType tells what it is' };
  }
  if (profile?.model === undefined) return { kind, reason: 'no_model', message: `${kind ?? 'file'} kept unprocessed: the preprocess profile "${profile?.name ?? 'default'}" has no model` };
  if (kind === undefined || !profile.mediaInputs.includes(kind)) {
    return { kind, reason: 'media_not_declared', message: `${kind ?? 'file'} kept unprocessed: profile "${profile.name}" does not list ${kind ?? 'it'} in mediaInputs` };
  }
  const mediaType = normalizeMediaType(input.mimeType ?? '');
  if (input.data !== undefined) {
    const bytes = resourceBytes(input.data);
    return { kind, files: [{ data: bytes, mediaType }], pageBound: kind === 'pdf' ? pdfPageBound(bytes) : undefined };
  }
  const url = new URL(input.uri as string);
  if (!profile.mediaUrls || url.protocol !== 'https:') {
    return { kind, reason: 'uri_not_allowed', message: `URI-only ${kind} kept unprocessed: ${url.protocol === 'https:' ? `profile "${profile.name}" does not set mediaUrls` : `only https URIs go to a model, not ${url.protocol}`}` };
  }
  return { kind, files: [{ data: url, mediaType }], pageBound: undefined };
}

/**
 * preprocess_multimodal: text resources pass through. An image, audio file or PDF (bytes, or an
 * https URI when the profile sets `mediaUrls`) goes to the `preprocess` profile's model as a file
 * part; its answer (captions, OCR, page text, transcript spans) is checked and becomes the
 * resource's text and segments, with the media span of each segment for evidence. Without a model
 * that reads the file, the resource is kept without text and the run carries a `media.unprocessed`
 * warning. The engine never fetches a URI.
 */
export const preprocessStep: Step = {
  stepId: 'preprocess_multimodal',
  role: 'preprocess',
  requires: ['scope', 'input', 'resource', 'segments'],
  produces: ['resource', 'segments', 'duplicateOf', 'mediaSpans', 'supersedes', 'warnings'],
  capabilities: [],
  optionalCapabilities: ['llm', 'media_input'],
  async run({ state, services, profileName, signal, recordUsage, note }) {
    state.mediaSpans = {};
    state.warnings = [];
    const input = state.input as MemorizeInput;
    const resource = state.resource as ResourceRow;
    if (state.duplicateOf !== undefined || input.type !== 'resource' || resource.content !== undefined) return;
    const scope = state.scope as ScopeValues;
    const byteLength = input.data === undefined ? undefined : resourceBytes(input.data).byteLength;
    const profile = services.profiles.get(profileName);
    const planned = plan(input, profile);
    if ('reason' in planned) {
      note(planned.message);
      state.warnings = [{ code: 'media.unprocessed', reason: planned.reason, message: planned.message } satisfies MemorizeWarning];
      const hash = unprocessedHash(resource.contentHash);
      const earlier = await services.store.findResourceByHash(scope, hash, services.pipelineRevision);
      if (earlier !== undefined) {
        state.duplicateOf = earlier;
        return;
      }
      const media: JsonValue = { status: 'unprocessed', reason: planned.reason, kind: planned.kind ?? null, byteLength: byteLength ?? null };
      state.resource = { ...resource, contentHash: hash, metadata: { ...resource.metadata, [mediaMetadataKey]: media } };
      return;
    }
    const model = profile as ResolvedLlmProfile;
    const { value, usage } = await generateStructured(model, {
      schema: mediaSegmentsSchema,
      system: `${mediaInstructions[planned.kind]} Answer JSON: {"segments":[{"source","text","page"?,"startMs"?,"endMs"?,"speaker"?}]}.`,
      prompt: 'The file follows.',
      files: planned.files,
      signal,
      operation: 'preprocess_multimodal',
    });
    recordUsage(usage);
    checkMediaAnswer(value, planned.kind, planned.pageBound);
    const built = segmentsFromAnswer(value, resource.id, scope);
    const media: JsonValue = { status: 'processed', kind: planned.kind, byteLength: byteLength ?? null, profile: model.name, model: describeModel(model.model), segments: built.segments.length };
    state.resource = { ...resource, content: built.content, metadata: { ...resource.metadata, [mediaMetadataKey]: media } };
    state.segments = built.segments;
    state.mediaSpans = Object.fromEntries(built.spans) satisfies Record<string, MediaSpan>;
    // A run without a model kept this file unprocessed: the processed resource replaces that row.
    state.supersedes = await services.store.findResourceByHash(scope, unprocessedHash(resource.contentHash), services.pipelineRevision);
    note(`${planned.kind}: ${built.segments.length} segments from ${describeModel(model.model)}`);
  },
};
