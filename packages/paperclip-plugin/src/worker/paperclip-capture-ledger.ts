import type { PluginContext } from '@paperclipai/plugin-sdk';

/**
 * What the worker has already captured, kept in Paperclip's plugin state at company scope, so a
 * redelivered event (the same event id) or a second event about the same comment or document
 * revision is captured once, across worker restarts. Keys in flight in this process are held too,
 * so two deliveries racing each other capture once.
 */
export interface CaptureLedger {
  /**
   * Runs `capture` unless one of `keys` was recorded before or is in flight; records every key
   * when `capture` returns true (a capture that failed returns false and may run again).
   * Returns whether `capture` ran.
   */
  once(companyId: string, keys: string[], capture: () => Promise<boolean>): Promise<boolean>;
}

const namespace = 'memplane-captured';

export function createCaptureLedger(ctx: PluginContext): CaptureLedger {
  const inFlight = new Set<string>();
  const scopeKey = (companyId: string, key: string) => ({ scopeKind: 'company' as const, scopeId: companyId, namespace, stateKey: key });
  return {
    async once(companyId, keys, capture) {
      const held = keys.map((key) => `${companyId}\u0000${key}`);
      if (held.some((key) => inFlight.has(key))) return false;
      for (const key of held) inFlight.add(key);
      try {
        for (const key of keys) if ((await ctx.state.get(scopeKey(companyId, key))) != null) return false;
        const done = await capture();
        if (done) for (const key of keys) await ctx.state.set(scopeKey(companyId, key), { capturedAt: new Date().toISOString() });
        return true;
      } finally {
        for (const key of held) inFlight.delete(key);
      }
    },
  };
}
