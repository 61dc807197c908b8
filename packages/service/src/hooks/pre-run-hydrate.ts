import { normalizeScope, parseInput, type MemoryContextBundle } from '@memplane/core';
import type { MemoryBinding, ResolvedMemoryBinding } from '../bindings/memory-binding';
import { resolveBinding } from '../bindings/resolve-binding';
import type { MemoryCallContext } from '../runtime/call-context';
import { createRecordOperations } from '../runtime/record-operations';
import { companySharedSnippets } from '../runtime/result-scope-guard';
import type { ServiceInternals } from '../service/service-internals';
import { buildPreamble } from './build-preamble';
import { deliverWithTimeout, deliveryBackstopMs, isImmediatelyRetryable } from './deliver-with-timeout';
import { deliveryEntry, notifySubscribers, recordDeliveries, startFiring, type MemoryHookReport, type SubscriberTable } from './hook-firing';
import { preRunHydrateInputSchema, type PreRunHydrateInput } from './hook-inputs';
import { thrownMessage } from '../errors/thrown-message';

/** What `pre_run_hydrate` recalled: the bundle and a ready preamble, within the caps. */
export interface PreRunHydration extends MemoryHookReport {
  /** How the binding was chosen: the agent's override or the company default. */
  resolvedBy?: ResolvedMemoryBinding['resolvedBy'];
  /** The snippets shown in the preamble (after the caps), with the provider's profile summary and usage. */
  bundle: MemoryContextBundle;
  /** Ready to put before the agent's prompt; empty when nothing was recalled or recall failed. */
  preamble: string;
  /**
   * The preamble of the recalled records every member of the company may read (records under no
   * agent; no profile summary), for a place a wider audience than the agent reads, such as an
   * issue document. The agent's own records are only in `preamble`. Empty when there are none.
   */
  sharedPreamble: string;
  /** Whether snippets or characters were left out to keep within the caps. */
  truncated: boolean;
}

/**
 * `pre_run_hydrate`: queries the agent's binding with intent `agent_preamble` and builds the
 * preamble. A failing or slow provider gives an empty preamble and a failed delivery, never an
 * error, so the run always starts.
 */
export async function preRunHydrate(
  internals: ServiceInternals,
  subscribers: SubscriberTable,
  context: MemoryCallContext,
  input: PreRunHydrateInput,
): Promise<PreRunHydration> {
  const valid = parseInput(preRunHydrateInputSchema, input, 'pre_run_hydrate input', 'input');
  const limits = { ...internals.hydration, ...valid.limits };
  const firing = await startFiring(internals, context, 'pre_run_hydrate', {
    actorAgentId: valid.agentId,
    heartbeatRunId: valid.heartbeatRunId,
  });
  const { companyId, hook } = firing;
  const scope = normalizeScope({ ...valid.scope, companyId });
  const hydration: PreRunHydration = {
    hookId: hook.hookId,
    hookKind: hook.hookKind,
    companyId,
    deliveries: [],
    bundle: { snippets: [] },
    preamble: '',
    sharedPreamble: '',
    truncated: false,
  };

  let binding: MemoryBinding | undefined;
  try {
    const resolved = await resolveBinding(internals.store, companyId, valid.agentId);
    binding = resolved.binding;
    hydration.resolvedBy = resolved.resolvedBy;
    hydration.bindingKey = binding.key;
  } catch (error) {
    const message = thrownMessage(error);
    hydration.deliveries.push(deliveryEntry(internals, firing, 'binding:(none)', { status: 'failed', attempts: 1, error: message, latencyMs: 0 }));
  }

  if (binding !== undefined) {
    const timeoutMs = valid.timeoutMs ?? internals.hookTimeoutMs;
    // The hook's timeout is the operation's deadline, so a hanging provider leaves a failed
    // MEMORY_TIMEOUT operation; the delivery's own timer only backs it up.
    // The preamble is read for the agent, so the agent identity policy decides what it may show.
    const records = createRecordOperations(internals, firing.context, {
      hook,
      deadlineMs: timeoutMs,
      readingAgentId: valid.agentId,
      // Recall reaches the whole scope; the log links the run's agent and issue.
      logScope: { agentId: valid.agentId, ...(valid.issueId === undefined ? {} : { issueId: valid.issueId }), ...(valid.projectId === undefined ? {} : { projectId: valid.projectId }) },
      // The delivery links the operation even when it failed or timed out.
      onOperationId: (operationId) => (hydration.operationId = operationId),
    });
    const outcome = await deliverWithTimeout(
      () =>
        records.query({
          bindingKey: binding.key,
          scope,
          query: valid.query,
          topK: limits.maxSnippets,
          intent: 'agent_preamble',
        }),
      {
        timeoutMs: timeoutMs + deliveryBackstopMs,
        maxAttempts: internals.hookMaxAttempts,
        receiver: `binding:${binding.key}`,
        shouldRetry: isImmediatelyRetryable,
      },
    );
    if (outcome.value !== undefined) {
      const { operationId, bindingKey: _key, providerId: _provider, ...bundle } = outcome.value;
      const built = buildPreamble(bundle, limits);
      hydration.operationId = operationId;
      hydration.bundle = { ...bundle, snippets: built.snippets };
      hydration.preamble = built.preamble;
      hydration.truncated = built.truncated;
      const placement = { registry: internals.store, scope, providerId: binding.providerId, bindingId: binding.id };
      // A registry that cannot be read shows nothing shared: the hook never fails the run, and never guesses.
      const shared = await companySharedSnippets(built.snippets, placement).catch(() => []);
      hydration.sharedPreamble = buildPreamble({ snippets: shared }, limits).preamble;
    }
    hydration.deliveries.push(
      deliveryEntry(internals, firing, `binding:${binding.key}`, outcome, {
        bindingId: binding.id,
        ...(hydration.operationId === undefined ? {} : { operationId: hydration.operationId }),
      }),
    );
  }

  hydration.deliveries.push(
    ...(await notifySubscribers(internals, subscribers, firing, {
      hook,
      companyId,
      scope,
      query: valid.query,
      bundle: hydration.bundle,
      ...(binding === undefined ? {} : { bindingKey: binding.key, providerId: binding.providerId }),
    })),
  );
  await recordDeliveries(internals, hydration.deliveries);
  // A subscriber's error is its own text: it is redacted on the way out as it is on the way into the store.
  return internals.redactor.redact(hydration);
}
