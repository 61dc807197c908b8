import type { PluginContext } from '@paperclipai/plugin-sdk';

/**
 * Keys one capture holds in a {@link CaptureLedger}: the ones no capture recorded before and no
 * other capture of this process holds right now.
 */
export interface CaptureClaim {
  /** The keys this claim holds. */
  readonly held: ReadonlySet<string>;
  /** The keys another capture of this process holds right now (it may still fail). */
  readonly busy: ReadonlySet<string>;
  /** Records every held key as captured, across worker restarts. */
  record(): Promise<void>;
  /** Lets the held keys go, recorded or not. Call it once, in a `finally`. */
  release(): void;
}

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
  /**
   * Holds those of `keys` that are free, for a capture that stores several things at once and
   * leaves out what another capture stored or is storing (a run's comments that comment capture
   * already kept).
   */
  claim(companyId: string, keys: string[]): Promise<CaptureClaim>;
}

const namespace = 'memplane-captured';

export function createCaptureLedger(ctx: PluginContext): CaptureLedger {
  const inFlight = new Set<string>();
  const scopeKey = (companyId: string, key: string) => ({ scopeKind: 'company' as const, scopeId: companyId, namespace, stateKey: key });
  const heldKey = (companyId: string, key: string) => `${companyId}\u0000${key}`;

  async function claim(companyId: string, keys: string[]): Promise<CaptureClaim> {
    const held = new Set<string>();
    const busy = new Set<string>();
    // Held before the state is read, so a capture racing this one sees them busy.
    for (const key of new Set(keys)) {
      if (inFlight.has(heldKey(companyId, key))) busy.add(key);
      else {
        inFlight.add(heldKey(companyId, key));
        held.add(key);
      }
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const key of held) inFlight.delete(heldKey(companyId, key));
    };
    try {
      for (const key of [...held]) {
        if ((await ctx.state.get(scopeKey(companyId, key))) == null) continue;
        held.delete(key);
        inFlight.delete(heldKey(companyId, key));
      }
    } catch (error) {
      release();
      throw error;
    }
    return {
      held,
      busy,
      async record() {
        const capturedAt = new Date().toISOString();
        for (const key of held) await ctx.state.set(scopeKey(companyId, key), { capturedAt });
      },
      release,
    };
  }

  return {
    claim,
    async once(companyId, keys, capture) {
      const claimed = await claim(companyId, keys);
      try {
        if (claimed.held.size !== new Set(keys).size) return false;
        if (await capture()) await claimed.record();
        return true;
      } finally {
        claimed.release();
      }
    },
  };
}
