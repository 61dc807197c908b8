import { identifierSchema, parseInput, type MemoryContextBundle, type MemoryHookContext, type MemoryHookKind, type MemoryScope, type MemorySourcePayload, type MemorySourceRef } from '@memplane/core';
import { z } from 'zod';
import { authorizeCompany } from '../policy/authorize-company';
import { parseCallContext, type MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryHookDeliveryEntry } from '../store/memory-service-records';
import { deliverWithTimeout, isSubscriberRetryable, type DeliveryOutcome } from './deliver-with-timeout';

/** What every receiver of a hook gets: the plan's hook delivery. A fresh copy per receiver. */
export interface MemoryHookDelivery {
  /** The hook kind, id, trigger time, acting agent and heartbeat run. */
  hook: MemoryHookContext;
  /** The company the hook fired in. */
  companyId: string;
  /** The binding resolved for the hook, when there is one. */
  bindingKey?: string;
  /** That binding's provider. */
  providerId?: string;
  /** The normalized scope. */
  scope: MemoryScope;
  /** Where the content came from (capture hooks). */
  source?: MemorySourceRef;
  /** The structured source payload (capture hooks). */
  payload?: MemorySourcePayload;
  /** What was recalled for (`pre_run_hydrate`). */
  query?: string;
  /** What was recalled (`pre_run_hydrate`, after the query). */
  bundle?: MemoryContextBundle;
}

/** A plugin or provider listening to hooks. It cannot break the run: it is timed out, retried once, and recorded. */
export interface MemoryHookSubscriber {
  /** Its name in delivery records, such as `acme-indexer`. */
  name: string;
  /** Its own timeout in milliseconds. Default: the service's hook timeout. */
  timeoutMs?: number;
  /** Receives one delivery. Honour `signal`: it is aborted when the delivery times out. */
  deliver(delivery: MemoryHookDelivery, signal: AbortSignal): void | Promise<void>;
}

/** What a hook firing did. Hook methods never throw for a failing receiver; they report it here. */
export interface MemoryHookReport {
  /** The firing's id, shared by its deliveries. */
  hookId: string;
  /** The hook kind. */
  hookKind: MemoryHookKind;
  /** The company. */
  companyId: string;
  /** The binding the built-in delivery went to, when one resolved. */
  bindingKey?: string;
  /** The operation the built-in delivery ran, when it ran. */
  operationId?: string;
  /** Every delivery of this firing: the built-in one first, then each subscriber. */
  deliveries: MemoryHookDeliveryEntry[];
}

/** The subscribers of one service, by hook kind. */
export type SubscriberTable = Map<MemoryHookKind, MemoryHookSubscriber[]>;

const subscriberSchema = z.object({
  name: identifierSchema,
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
  deliver: z.custom<MemoryHookSubscriber['deliver']>((value) => typeof value === 'function', 'must be a function'),
});

/** Validates a subscriber; a bad one throws `MemoryValidationError` naming the field. */
export function parseSubscriber(subscriber: unknown): MemoryHookSubscriber {
  parseInput(subscriberSchema, subscriber, 'hook subscriber', 'subscriber');
  return subscriber as MemoryHookSubscriber;
}

/** A hook firing in progress. */
export interface HookFiring {
  context: MemoryCallContext;
  companyId: string;
  hook: MemoryHookContext;
  startedAt: string;
}

/** Starts a firing: the caller may emit hooks (`hooks.emit`) in the company; the hook gets its id and time. */
export async function startFiring(
  internals: ServiceInternals,
  context: MemoryCallContext,
  hookKind: MemoryHookKind,
  details: { actorAgentId?: string; heartbeatRunId?: string; hookId?: string },
): Promise<HookFiring> {
  const valid = parseCallContext(context);
  const heartbeatRunId = details.heartbeatRunId ?? valid.heartbeatRunId;
  const companyId = await authorizeCompany(internals.authorize, valid, 'hooks.emit');
  const triggeredAt = internals.now();
  return {
    context: { ...valid, ...(heartbeatRunId === undefined ? {} : { heartbeatRunId }) },
    companyId,
    startedAt: triggeredAt,
    hook: {
      hookKind,
      // A queued delivery keeps the id it was queued with, so a second run of the job can tell it was done.
      hookId: details.hookId ?? internals.createId('hook'),
      triggeredAt,
      ...(details.actorAgentId === undefined ? {} : { actorAgentId: details.actorAgentId }),
      ...(heartbeatRunId === undefined ? {} : { heartbeatRunId }),
    },
  };
}

/** Turns a delivery outcome into its record. */
export function deliveryEntry(
  internals: ServiceInternals,
  firing: HookFiring,
  receiver: string,
  outcome: Omit<DeliveryOutcome<unknown>, 'value' | 'status'> & { status: MemoryHookDeliveryEntry['status'] },
  extra: { bindingId?: string; operationId?: string } = {},
): MemoryHookDeliveryEntry {
  if (outcome.status === 'failed' || outcome.status === 'timed_out') internals.counters.failedHookDeliveries += 1;
  return {
    id: internals.createId('dlv'),
    companyId: firing.companyId,
    hookId: firing.hook.hookId,
    hookKind: firing.hook.hookKind,
    receiver,
    status: outcome.status,
    attempts: outcome.attempts,
    startedAt: firing.startedAt,
    finishedAt: internals.now(),
    latencyMs: outcome.latencyMs,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(extra.bindingId === undefined ? {} : { bindingId: extra.bindingId }),
    ...(extra.operationId === undefined ? {} : { operationId: extra.operationId }),
  };
}

/** Delivers to every subscriber of the hook kind, in parallel, each isolated by its timeout. */
export async function notifySubscribers(
  internals: ServiceInternals,
  subscribers: SubscriberTable,
  firing: HookFiring,
  delivery: MemoryHookDelivery,
): Promise<MemoryHookDeliveryEntry[]> {
  const receivers = subscribers.get(firing.hook.hookKind) ?? [];
  return Promise.all(
    receivers.map(async (subscriber) => {
      const outcome = await deliverWithTimeout((signal) => subscriber.deliver(structuredClone(delivery), signal), {
        timeoutMs: subscriber.timeoutMs ?? internals.hookTimeoutMs,
        maxAttempts: internals.hookMaxAttempts,
        receiver: subscriber.name,
        shouldRetry: isSubscriberRetryable,
      });
      return deliveryEntry(internals, firing, subscriber.name, outcome);
    }),
  );
}

/** Records the deliveries of a firing. A store failure is reported, never thrown into the run. */
export async function recordDeliveries(internals: ServiceInternals, entries: MemoryHookDeliveryEntry[]): Promise<void> {
  try {
    await internals.store.appendHookDeliveries(entries);
  } catch (error) {
    internals.reportBackgroundError(error, 'appendHookDeliveries');
  }
}
