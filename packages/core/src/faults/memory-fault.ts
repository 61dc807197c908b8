/**
 * A fault the conformance suite asks an adapter's test setup to inject. Hosted adapters
 * inject them in their HTTP fake; the reference adapter has a fault switch. A fault stays
 * in force until `reset()`, so an adapter's own retries see it on every attempt.
 */
export type MemoryFault =
  | {
      /** The provider answers HTTP 429 with a Retry-After header. */
      kind: 'rate_limited';
      /** The Retry-After value, in whole seconds. */
      retryAfterSeconds: number;
    }
  | {
      /** The provider answers with a 5xx status. */
      kind: 'server_error';
      /** The status, such as 500 or 503. */
      status: number;
    }
  | {
      /** The provider never answers; the adapter's timeout must fire. */
      kind: 'timeout';
    }
  | {
      /** The provider answers 200 with a body that does not match its API. */
      kind: 'malformed_body';
    }
  | {
      /** Extraction jobs started while the fault is in force fail. */
      kind: 'extraction_failure';
    };

/** Injects faults into an adapter under test. */
export interface MemoryFaultInjector {
  /** Puts a fault in force until `reset()`. */
  inject(fault: MemoryFault): void | Promise<void>;
  /** Removes every fault. */
  reset(): void | Promise<void>;
}
