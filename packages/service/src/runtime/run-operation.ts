import { performance } from 'node:perf_hooks';
import {
  MemoryApiCallError,
  MemoryError,
  MemoryTimeoutError,
  normalizeScope,
  type MemoryAdapter,
  type MemoryHookContext,
  type MemoryScope,
  type MemorySourceRef,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { ownCompanyOf, referenceOf } from '../actor/memory-actor';
import type { MemoryBinding } from '../bindings/memory-binding';
import { resolveBinding } from '../bindings/resolve-binding';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import { thrownMessage } from '../errors/thrown-message';
import { toDecision, type MemoryServiceOperation } from '../policy/memory-policy';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryOperationEntry, MemoryOperationType } from '../store/memory-service-records';
import { companyOfCall, type MemoryCallContext } from './call-context';
import { recordCostEvents } from '../costs/record-cost-events';
import { attributionModeOf, hasBillableCounters } from './usage-attribution';
import { actingAgentOf, applyAgentIdentity } from './agent-identity';
import { callWithDeadline } from './provider-deadline';
import type { PlacementContext } from './result-scope-guard';

/** What an operation needs before it can run: its validated request, reduced to what the service reads. */
export interface PreparedOperation {
  /** The scope the caller asked for, without the company (or with it, checked against the caller's). */
  scope: Partial<MemoryScope>;
  /** Company ids named anywhere in the request (scope, source); all must be the caller's company. */
  namedCompanyIds: Array<string | undefined>;
  /** The binding key the caller named, if any. */
  bindingKey?: string;
  /**
   * Finds the binding id to use instead of resolution (retrying a job runs through the binding
   * that ran it). Called after the policy allowed the call, inside the caller's company.
   */
  locateBinding?: (companyId: string) => Promise<string>;
  /** The agent to resolve for, when it is not the scope's. */
  resolutionAgentId?: string;
  /** The provenance, company filled in later. */
  source?: Omit<MemorySourceRef, 'companyId'> & { companyId?: string };
  /** The hook that caused the operation. */
  hook?: MemoryHookContext;
  /** Small facts for the log (never record text). */
  details?: Record<string, unknown>;
}

/** What the adapter call produced, for the caller and the log. */
export interface OperationOutcome<Result> {
  result: Result;
  usage?: MemoryUsage[];
  warnings?: MemoryWarning[];
  recordIds?: string[];
  resultCount?: number;
  dropped?: number;
  /** Extraction jobs seen ending in failure. */
  extractionFailures?: number;
}

/** What an operation's body receives. */
export interface OperationInput {
  adapter: MemoryAdapter;
  binding: MemoryBinding;
  scope: MemoryScope;
  source: MemorySourceRef | undefined;
  operationId: string;
  /**
   * Calls the provider under the operation's deadline. Every adapter call goes through it: past
   * the deadline it rejects with `MemoryTimeoutError`, so the body stops there and a late result
   * is never used, logged as a success or written.
   */
  call<Value>(name: string, work: () => Promise<Value>): Promise<Value>;
  /** What the result checks need to place the provider's records for the caller. */
  placement: PlacementContext;
}

/** How an operation runs besides its request: the deadline a hook delivery gives it. */
export interface OperationOptions {
  /** The deadline of each provider call, when smaller than the binding's (a hook's timeout). */
  deadlineMs?: number;
  /** The agent the results are read for when the caller is not that agent (a hydration's agent). */
  readingAgentId?: string;
  /** Told the operation's id as it starts, so a hook can link even a failed or timed-out operation. */
  onOperationId?: (operationId: string) => void;
  /** Facts for the log known before the request is parsed, kept even when it is refused (never record text). */
  details?: Record<string, unknown>;
  /**
   * Scope fields the log entry records beside the request's (a hydration's agent and issue), so
   * the explorer lists the operation under them. They never narrow what the call reaches; a
   * field the request sets wins.
   */
  logScope?: Omit<Partial<MemoryScope>, 'companyId'>;
}

/** What every operation returns besides its result. */
export interface MemoryOperationReceipt {
  /** The id of the operation log entry; link cost events to it. */
  operationId: string;
  /** The binding the operation ran through. */
  bindingKey: string;
  /** The provider of that binding. */
  providerId: string;
}

const maximumLoggedIds = 100;
const maximumLoggedWarnings = 20;

function toServiceError(error: unknown, binding: MemoryBinding | undefined): unknown {
  if (MemoryError.isInstance(error)) return error;
  // A provider (a plugin) threw something outside the error hierarchy: callers still get a typed error.
  const message = thrownMessage(error);
  return new MemoryApiCallError({
    message: `Provider ${binding?.providerId ?? '(unresolved)'} failed: ${message}`,
    cause: error,
    isRetryable: false,
  });
}

/**
 * Runs one operation the way every runtime operation runs: the company from the caller, the
 * policy, resolution, the adapter call, the result checks, attribution and one log entry,
 * written whether the operation succeeded or not.
 */
export async function runOperation<Result>(
  internals: ServiceInternals,
  context: MemoryCallContext,
  operation: MemoryOperationType,
  policyOperation: MemoryServiceOperation,
  prepare: () => PreparedOperation,
  execute: (input: OperationInput) => Promise<OperationOutcome<Result>>,
  options: OperationOptions = {},
): Promise<{ result: Result; receipt: MemoryOperationReceipt }> {
  const started = performance.now();
  const createdAt = internals.now();
  const operationId = internals.createId('op');
  options.onOperationId?.(operationId);
  let prepared: PreparedOperation | undefined;
  let companyId: string | undefined;
  let scope: MemoryScope | undefined;
  let binding: MemoryBinding | undefined;
  internals.counters.operations += 1;
  internals.counters.inFlightOperations += 1;

  const log = (entry: Partial<MemoryOperationEntry> & Pick<MemoryOperationEntry, 'status' | 'usage' | 'warnings' | 'droppedOutOfScope'>) => {
    const logCompany = companyId;
    if (logCompany === undefined) return undefined;
    const source = prepared?.source === undefined ? undefined : { ...prepared.source, companyId: logCompany };
    const full: MemoryOperationEntry = {
      id: operationId,
      companyId: logCompany,
      operation,
      actor: referenceOf(context.actor),
      scope: options.logScope === undefined ? (scope ?? { companyId: logCompany }) : normalizeScope({ ...options.logScope, ...scope, companyId: logCompany }),
      latencyMs: performance.now() - started,
      createdAt,
      ...(binding === undefined ? {} : { bindingId: binding.id, bindingKey: binding.key, providerId: binding.providerId }),
      ...(source === undefined ? {} : { source: source as MemorySourceRef }),
      ...(prepared?.hook === undefined ? {} : { hookKind: prepared.hook.hookKind, hookId: prepared.hook.hookId }),
      ...(context.heartbeatRunId === undefined ? {} : { heartbeatRunId: context.heartbeatRunId }),
      ...(prepared?.details === undefined && options.details === undefined && context.client === undefined
        ? {}
        : { details: { ...options.details, ...prepared?.details, ...(context.client === undefined ? {} : { client: context.client }) } }),
      ...entry,
    };
    return internals.logWriter.append(full);
  };

  try {
    try {
      prepared = prepare();
    } finally {
      // Even a malformed request is logged, under the caller's own company when there is one.
      companyId = ownCompanyOf(context.actor) ?? context.companyId;
    }
    const source = prepared.source;
    companyId = companyOfCall(context, policyOperation, [...prepared.namedCompanyIds, source?.companyId]);
    // An agent acts as itself: its writes are its own, and it reads as far as the identity policy says.
    scope = applyAgentIdentity(context.actor, policyOperation, normalizeScope({ ...prepared.scope, companyId }), internals.agentReadReach);
    let decision;
    try {
      // Most policies answer synchronously; awaiting only a promise saves a tick per operation.
      const answer = internals.authorize(context.actor, policyOperation, scope);
      decision = toDecision(answer instanceof Promise ? await answer : answer);
    } catch (cause) {
      // A policy that throws refuses.
      decision = { allowed: false, reason: `the policy failed: ${thrownMessage(cause)}` };
    }
    if (!decision.allowed) {
      throw new MemoryAccessDeniedError({ operation: policyOperation, companyId, reason: decision.reason ?? 'refused by the policy' });
    }
    if (prepared.locateBinding !== undefined) {
      const located = await internals.store.getBindingById(companyId, await prepared.locateBinding(companyId));
      if (located === undefined || !located.enabled) throw new MemoryBindingNotFoundError({ companyId, bindingKey: located?.key ?? '(removed)' });
      binding = located;
    }
    // The memory of the agent the scope names lives in that agent's binding; without one, the calling agent's.
    const resolutionAgentId =
      prepared.resolutionAgentId ?? scope.agentId ?? (context.actor.kind === 'agent' ? context.actor.agentId : undefined);
    binding ??= (await resolveBinding(internals.store, companyId, resolutionAgentId, prepared.bindingKey)).binding;
    const adapter = internals.adapters.builtAdapter(binding) ?? (await internals.adapters.adapterFor(binding));
    const bindingDeadline = internals.deadlineFor(binding);
    const deadlineMs = options.deadlineMs === undefined ? bindingDeadline : Math.min(options.deadlineMs, bindingDeadline);
    const providerId = binding.providerId;
    const provided = await execute({
      adapter,
      binding,
      scope,
      source: source === undefined ? undefined : ({ ...source, companyId } as MemorySourceRef),
      operationId,
      call: (name, work) =>
        callWithDeadline(work, deadlineMs, `${providerId} ${name}`).catch((error: unknown) => {
          if (MemoryTimeoutError.isInstance(error)) internals.counters.timedOutProviderCalls += 1;
          throw error;
        }),
      placement: {
        registry: internals.store,
        scope,
        providerId,
        bindingId: binding.id,
        ...(context.actor.kind === 'agent'
          ? { readerAgentId: context.actor.agentId }
          : options.readingAgentId === undefined
            ? {}
            : { readerAgentId: options.readingAgentId }),
        reach: internals.agentReadReach,
      },
    });
    // Resolved secrets a provider echoed (in results, warnings, usage, raw payloads) end here.
    const outcome = internals.redactor.redact(provided);
    const usage = outcome.usage ?? [];
    const dropped = outcome.dropped ?? 0;
    internals.counters.droppedOutOfScope += dropped;
    let attributionMode = attributionModeOf(context.attributionMode, usage, context.heartbeatRunId);
    let billed = usage;
    if (attributionMode === 'untracked') {
      // Metered provider usage that no run accounts for is a direct cost, as the plan says, whatever the provider called it.
      billed = usage.filter((entry) => entry.billingType === 'metered_api' && hasBillableCounters(entry));
      if (billed.length > 0) attributionMode = 'billed_directly';
    }
    let costEventId = context.costEventId;
    // Work the run already accounts for (included_in_run) creates no cost event; direct metered calls do.
    if (costEventId === undefined && attributionMode === 'billed_directly') {
      costEventId = await recordCostEvents(internals, {
        operationId,
        companyId,
        binding,
        scope,
        agentId: scope.agentId ?? actingAgentOf(context.actor),
        heartbeatRunId: context.heartbeatRunId,
        usage: billed,
        occurredAt: createdAt,
      });
    }
    const written = log({
      status: 'succeeded',
      usage,
      attributionMode,
      warnings: (outcome.warnings ?? []).slice(0, maximumLoggedWarnings),
      droppedOutOfScope: dropped,
      ...(costEventId === undefined ? {} : { costEventId }),
      ...(outcome.recordIds === undefined ? {} : { recordIds: outcome.recordIds.slice(0, maximumLoggedIds) }),
      ...(outcome.resultCount === undefined ? {} : { resultCount: outcome.resultCount }),
      ...(outcome.extractionFailures === undefined || outcome.extractionFailures === 0 ? {} : { extractionFailures: outcome.extractionFailures }),
    });
    if (written !== undefined) await written;
    return { result: outcome.result, receipt: { operationId, bindingKey: binding.key, providerId: binding.providerId } };
  } catch (caught) {
    const error = internals.redactor.redactError(toServiceError(caught, binding));
    internals.counters.failedOperations += 1;
    if (MemoryAccessDeniedError.isInstance(error)) {
      internals.counters.deniedOperations += 1;
      companyId ??= error.companyId;
    }
    const code = MemoryError.isInstance(error) ? error.code : 'MEMORY_API_CALL';
    const message = thrownMessage(error);
    const written = log({
      status: 'failed',
      errorCode: code,
      errorMessage: message.slice(0, 2000),
      usage: [],
      warnings: [],
      droppedOutOfScope: 0,
      ...(context.costEventId === undefined ? {} : { costEventId: context.costEventId }),
    });
    if (written !== undefined) await written;
    throw error;
  } finally {
    internals.counters.inFlightOperations -= 1;
  }
}
