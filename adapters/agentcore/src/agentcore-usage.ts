import type { MemoryUsage } from '@memplane/core';
import { agentCoreProviderKey } from './agentcore-handle';

/** The SDK's `$metadata` of a response: request id, attempts and retry delay. */
export interface AgentCoreResponseMetadata {
  /** The HTTP status. */
  httpStatusCode?: number;
  /** The AWS request id, for support cases and CloudTrail. */
  requestId?: string;
  /** How many attempts the SDK itself made. */
  attempts?: number;
  /** How long the SDK itself waited between attempts, in milliseconds. */
  totalRetryDelay?: number;
}

/**
 * The usage of one AgentCore call. AgentCore reports no tokens, cost or server timings, so
 * every counter stays undefined; `latencyMs` is the adapter's wall-clock measurement of the
 * call with its retries, and `raw` is the SDK's `$metadata` (request id, attempts, retry
 * delay). AgentCore bills per call on the AWS account's invoice, hence `metered_api` and
 * `external_invoice`.
 */
export function toAgentCoreUsage(operation: string, metadata: AgentCoreResponseMetadata | undefined, latencyMs: number): MemoryUsage {
  const usage: MemoryUsage = {
    provider: agentCoreProviderKey,
    billingType: 'metered_api',
    attributionMode: 'external_invoice',
    latencyMs,
    details: { operation },
  };
  if (metadata !== undefined) {
    if (metadata.requestId !== undefined) usage.details = { operation, requestId: metadata.requestId };
    usage.raw = metadata;
  }
  return usage;
}
