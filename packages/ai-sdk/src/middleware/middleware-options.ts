import { metadataSchema, parseInput } from '@memplane/core';
import { parseActor, type MemoryActor, type MemoryHooks } from '@memplane/service';
import { z } from 'zod';
import { defaultClient, memplaneAgentSchema, memplaneClientSchema, type MemplaneAgent, type MemplaneClient } from '../memplane-agent';
import type { MemplaneEventListener } from './middleware-events';

/** What the middleware needs from the service: the two hooks. A `MemoryService` is one. */
export interface MemplaneHookHost {
  hooks: Pick<MemoryHooks, 'preRunHydrate' | 'postRunCapture' | 'enqueue'>;
}

/** How recalled memory goes into the prompt. */
export interface MemplaneHydrateOptions {
  /** How long the model call waits for recall before going on without it, in ms. Default 1500. */
  timeoutMs?: number;
  /**
   * The most tokens the recalled block may take. Default 800. The service caps the preamble at
   * 4 characters a token; with `countTokens`, lines are also dropped from the end until it fits.
   */
  maxTokens?: number;
  /** Your tokenizer, for an exact cap. */
  countTokens?: (text: string) => number;
  /** `company` (default): what the agent's binding holds for the company; `agent`: only the agent's own memories. */
  reach?: 'company' | 'agent';
  /** How long a turn's recall is reused by its tool-loop steps, in ms. Default 60000. */
  cacheTtlMs?: number;
}

/** How turns are captured. */
export interface MemplaneCaptureOptions {
  /** Also capture the turn's tool calls and results (the memory tools' own excepted). Default false. */
  includeToolCalls?: boolean;
  /**
   * The model's reply: `skip` (default) captures the user's message (and the tool lines, when
   * included) without it, so the assistant's own words ("Nice to meet you! How can I help?") never
   * come back as memories; `keep` captures it too, as an `Assistant:` line.
   */
  assistantTurns?: 'skip' | 'keep';
  /** Metadata stored with every captured turn. */
  metadata?: Record<string, unknown>;
  /** Captures in flight before a reply waits for one to finish (back-pressure, never a drop). Default 100. */
  maxPending?: number;
  /**
   * `direct` (default): the service delivers each capture now, in this process, and the
   * outcome is an event. `queue`: each capture is handed to the service's job queue
   * (`hooks.enqueue`), durable with the Postgres queue, and delivered by a worker, which records
   * the outcome in the hook deliveries and the operation log; the event is `capture-queued`.
   */
  delivery?: 'direct' | 'queue';
}

/** Settings of {@link memplaneMiddleware}. */
export interface MemplaneMiddlewareOptions {
  /** The agent the turns belong to, set by the host. `runId` is the provenance of captured turns; default: one id per middleware. */
  agent: MemplaneAgent;
  /**
   * Who emits the hooks. Default: the system (`{ kind: 'system', component: 'ai-sdk' }`), the
   * platform acting in `agent.companyId`. Under the default policy agents may not emit hooks.
   */
  hookActor?: MemoryActor;
  /** The program the turns come through, logged beside the hook actor on every operation. Default: `@memplane/ai-sdk` and its version. */
  client?: MemplaneClient;
  /** Recall before each turn (`pre_run_hydrate`), or `false`. Default on. */
  hydrate?: false | MemplaneHydrateOptions;
  /** Capture each finished turn (`post_run_capture`), or `false`. Default on. */
  capture?: false | MemplaneCaptureOptions;
  /** Told about recalls, captures, timeouts and failures. */
  onEvent?: MemplaneEventListener;
}

const hydrateSchema = z.strictObject({
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
  maxTokens: z.number().int().min(1).max(250_000).optional(),
  countTokens: z.custom<(text: string) => number>((value) => typeof value === 'function', 'must be a function').optional(),
  reach: z.enum(['company', 'agent']).optional(),
  cacheTtlMs: z.number().int().min(0).max(86_400_000).optional(),
});

const captureSchema = z.strictObject({
  includeToolCalls: z.boolean().optional(),
  assistantTurns: z.enum(['skip', 'keep']).optional(),
  metadata: metadataSchema.optional(),
  maxPending: z.number().int().min(1).max(100_000).optional(),
  delivery: z.enum(['direct', 'queue']).optional(),
});

const optionsSchema = z.strictObject({
  agent: memplaneAgentSchema,
  // Checked with the service's own actor schema below, so the field is named as the service names it.
  hookActor: z.unknown().optional(),
  client: memplaneClientSchema.optional(),
  hydrate: z.union([z.literal(false), hydrateSchema]).optional(),
  capture: z.union([z.literal(false), captureSchema]).optional(),
  onEvent: z.custom<MemplaneEventListener>((value) => typeof value === 'function', 'must be a function').optional(),
});

/** The settings with their defaults. */
export interface ResolvedMiddlewareOptions {
  agent: MemplaneAgent & { runId: string };
  hookActor: MemoryActor;
  client: MemplaneClient;
  hydrate: Required<Omit<MemplaneHydrateOptions, 'countTokens'>> & Pick<MemplaneHydrateOptions, 'countTokens'> | false;
  capture: { includeToolCalls: boolean; assistantTurns: 'skip' | 'keep'; metadata: Record<string, unknown> | undefined; maxPending: number; delivery: 'direct' | 'queue' } | false;
  onEvent: MemplaneEventListener | undefined;
}

/** Validates the settings (`MemoryValidationError` naming the field) and fills in the defaults. */
export function resolveMiddlewareOptions(options: unknown, createRunId: () => string): ResolvedMiddlewareOptions {
  const valid = parseInput(optionsSchema, options, 'memplaneMiddleware options', 'options');
  const { hydrate, capture } = valid;
  return {
    agent: { ...valid.agent, runId: valid.agent.runId ?? createRunId() },
    client: (valid.client as MemplaneClient | undefined) ?? defaultClient,
    hookActor: valid.hookActor === undefined ? { kind: 'system', component: 'ai-sdk' } : parseActor(valid.hookActor),
    hydrate:
      hydrate === false
        ? false
        : {
            timeoutMs: hydrate?.timeoutMs ?? 1500,
            maxTokens: hydrate?.maxTokens ?? 800,
            reach: hydrate?.reach ?? 'company',
            cacheTtlMs: hydrate?.cacheTtlMs ?? 60_000,
            ...(hydrate?.countTokens === undefined ? {} : { countTokens: hydrate.countTokens }),
          },
    capture:
      capture === false
        ? false
        : {
            includeToolCalls: capture?.includeToolCalls ?? false,
            assistantTurns: capture?.assistantTurns ?? 'skip',
            metadata: capture?.metadata,
            maxPending: capture?.maxPending ?? 100,
            delivery: capture?.delivery ?? 'direct',
          },
    onEvent: valid.onEvent,
  };
}
