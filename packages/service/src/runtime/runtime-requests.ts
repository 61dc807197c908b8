import {
  copyValidListRequest,
  copyValidQueryRequest,
  identifierSchema,
  parseInput,
  memoryCaptureRequestSchema,
  memoryCorrectionPatchSchema,
  memoryListRequestSchema,
  memoryQueryRequestSchema,
  memoryRecordHandleSchema,
  memoryRecordWriteRequestSchema,
  memoryScopeSchema,
  memorySourceRefSchema,
  type MemoryCaptureRequest,
  type MemoryCorrectionPatch,
  type MemoryExtractionJobStatus,
  type MemoryHookKind,
  type MemoryListRequest,
  type MemoryQueryRequest,
  type MemoryRecordHandle,
  type MemoryRecordWriteRequest,
  type MemoryScope,
  type MemorySourceRef,
} from '@memplane/core';
import { z } from 'zod';

/** A scope as callers of the service give it: the company is optional and, when set, must be the caller's. */
export type MemoryServiceScope = Omit<MemoryScope, 'companyId'> & { companyId?: string };

/** A source as callers of the service give it: the company is filled from the caller. */
export type MemoryServiceSourceRef = Omit<MemorySourceRef, 'companyId'> & { companyId?: string };

/**
 * The binding is resolved unless `bindingKey` names one; the scope defaults to the whole
 * company (`{}`), and its company comes from the caller.
 */
interface ServiceEnvelope {
  /** A binding of the caller's company to use instead of resolution. */
  bindingKey?: string;
  /** The scope; the company is the caller's. Default: the whole company. */
  scope?: MemoryServiceScope;
}

/** `capture` through the service. */
export type ServiceCaptureRequest = Omit<MemoryCaptureRequest, 'bindingKey' | 'scope' | 'source'> &
  ServiceEnvelope & { source: MemoryServiceSourceRef };
/** `upsertRecords` through the service. */
export type ServiceRecordWriteRequest = Omit<MemoryRecordWriteRequest, 'bindingKey' | 'scope' | 'source'> &
  ServiceEnvelope & { source?: MemoryServiceSourceRef };
/** `query` through the service. */
export type ServiceQueryRequest = Omit<MemoryQueryRequest, 'bindingKey' | 'scope'> &
  ServiceEnvelope & {
    /**
     * Also asks the provider how it retrieved the returned snippets (`result.explanation`), when
     * the binding's adapter declares `capabilities.explain`; otherwise the result carries an
     * `unsupported` warning for `explain`. Default false.
     */
    explain?: boolean;
  };
/** `list` through the service. */
export type ServiceListRequest = Omit<MemoryListRequest, 'bindingKey' | 'scope'> & ServiceEnvelope;
/** `get` through the service. */
export type ServiceGetRequest = ServiceEnvelope & { handle: MemoryRecordHandle };
/** `forget` through the service. */
export type ServiceForgetRequest = ServiceEnvelope & { handles: MemoryRecordHandle[] };
/** `correct` through the service. */
export type ServiceCorrectRequest = ServiceEnvelope & { handle: MemoryRecordHandle; patch: MemoryCorrectionPatch };
/** `profile` through the service. */
export type ServiceProfileRequest = ServiceEnvelope;
/** The provider's own extraction job listing, through the service. */
export type ServiceProviderJobListRequest = ServiceEnvelope & { cursor?: string };
/** Re-drives a failed extraction job the service knows (by its `job_…` id). */
export interface ServiceRetryJobRequest {
  /** The service's job id. */
  jobId: string;
}
/** Polls the provider for the jobs the service holds as queued or running. */
export interface ServiceRefreshJobsRequest {
  /** Only the jobs of this binding. Default: every binding of the company. */
  bindingKey?: string;
  /** At most this many jobs are polled. Default 50, at most 500. */
  limit?: number;
}

const serviceScopeSchema = memoryScopeSchema.partial({ companyId: true });
const serviceSourceSchema = memorySourceRefSchema.partial({ companyId: true });
const envelope = { bindingKey: identifierSchema.optional(), scope: serviceScopeSchema.optional() };

export const serviceCaptureRequestSchema = memoryCaptureRequestSchema.extend({ ...envelope, source: serviceSourceSchema });
export const serviceRecordWriteRequestSchema = memoryRecordWriteRequestSchema.extend({
  ...envelope,
  source: serviceSourceSchema.optional(),
});
export const serviceQueryRequestSchema = memoryQueryRequestSchema.extend({ ...envelope, explain: z.boolean().optional() });
export const serviceListRequestSchema = memoryListRequestSchema.extend(envelope);

/** Stands in for the envelope fields a service request may leave out; removed again after the check. */
const placeholder = '\u200bservice-envelope-placeholder';

/**
 * A service query or list request is the adapter request with `bindingKey`, `scope` and
 * `scope.companyId` optional. Every query and list passes here, and core's hand-written
 * checks (`copyValidQueryRequest`, `copyValidListRequest`) are far cheaper than zod, so the
 * request is checked as an adapter request with the missing envelope fields filled in by a
 * placeholder, which is then taken out. A request that fails goes through the zod schema,
 * which names the field. Each field is read once; a request that throws while it is read
 * (a getter, a proxy) goes to zod too, which refuses it through `parseInput`.
 */
function copyWithEnvelope<Request extends { bindingKey: string; scope: MemoryScope }>(
  value: unknown,
  copy: (request: unknown) => Request | undefined,
): (Omit<Request, 'bindingKey' | 'scope'> & { bindingKey?: string; scope?: Partial<MemoryScope> }) | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { bindingKey, scope, ...fields } = value as Record<string, unknown>;
  if (scope !== undefined && (typeof scope !== 'object' || scope === null || Array.isArray(scope))) return undefined;
  const scopeFields: Record<string, unknown> = { ...(scope as Record<string, unknown> | undefined) };
  const companyId = scopeFields.companyId;
  const filled = copy({
    ...fields,
    bindingKey: bindingKey ?? placeholder,
    scope: { ...scopeFields, companyId: companyId ?? placeholder },
  });
  if (filled === undefined) return undefined;
  const { bindingKey: checkedKey, scope: filledScope, ...rest } = filled;
  const result: Omit<Request, 'bindingKey' | 'scope'> & { bindingKey?: string; scope?: Partial<MemoryScope> } = rest;
  if (bindingKey !== undefined) result.bindingKey = checkedKey;
  if (scope !== undefined) {
    const { companyId: checkedCompany, ...below } = filledScope;
    result.scope = companyId === undefined ? below : { companyId: checkedCompany, ...below };
  }
  return result;
}

/** The fast path of a query request, or undefined when zod must check it (or say why not). */
function copyQueryRequest(request: unknown): ServiceQueryRequest | undefined {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return undefined;
  if (!('explain' in request)) return copyWithEnvelope(request, copyValidQueryRequest) as ServiceQueryRequest | undefined;
  // `explain` is the service's own field, unknown to core's fast path: checked here, then put back.
  const { explain, ...rest } = request as Record<string, unknown>;
  if (typeof explain !== 'boolean') return undefined;
  const copied = copyWithEnvelope(rest, copyValidQueryRequest) as ServiceQueryRequest | undefined;
  return copied === undefined ? undefined : { ...copied, explain };
}

/** Runs a fast path; one that throws (a hostile request) leaves the request to zod. */
function fastPath<Result>(copy: () => Result | undefined): Result | undefined {
  try {
    return copy();
  } catch {
    return undefined;
  }
}

/** Checks a service query request: the fast path, else zod naming the field. */
export function parseServiceQueryRequest(request: unknown): ServiceQueryRequest {
  return fastPath(() => copyQueryRequest(request)) ?? parseInput(serviceQueryRequestSchema, request, 'query request');
}

/** Checks a service list request: the fast path, else zod naming the field. */
export function parseServiceListRequest(request: unknown): ServiceListRequest {
  return (
    fastPath(() => copyWithEnvelope(request, copyValidListRequest) as ServiceListRequest | undefined) ??
    parseInput(serviceListRequestSchema, request, 'list request')
  );
}
export const serviceGetRequestSchema = z.strictObject({ ...envelope, handle: memoryRecordHandleSchema });
export const serviceForgetRequestSchema = z.strictObject({
  ...envelope,
  handles: z.array(memoryRecordHandleSchema).min(1).max(1000),
});
export const serviceCorrectRequestSchema = z.strictObject({
  ...envelope,
  handle: memoryRecordHandleSchema,
  patch: memoryCorrectionPatchSchema,
});
export const serviceProfileRequestSchema = z.strictObject(envelope);
export const serviceProviderJobListRequestSchema = z.strictObject({ ...envelope, cursor: z.string().min(1).max(4096).optional() });
export const serviceRetryJobRequestSchema = z.strictObject({ jobId: identifierSchema });
export const serviceRefreshJobsRequestSchema = z.strictObject({
  bindingKey: identifierSchema.optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

/** Filters of the service's extraction job listing. */
export interface ServiceJobListRequest {
  /** Only this binding. */
  bindingKey?: string;
  /** Only these statuses. */
  statuses?: MemoryExtractionJobStatus[];
  /** Only jobs caused by this hook. */
  hookKind?: MemoryHookKind;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Page size, default 50, at most 200. */
  limit?: number;
}
