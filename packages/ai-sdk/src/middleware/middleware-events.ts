import type { MemoryError } from '@memplane/core';

/**
 * What the middleware reports. Hydration and capture never break a reply; what went wrong is
 * told here (and, for failed deliveries, in the service's operation log and hook deliveries).
 */
export type MemplaneMiddlewareEvent =
  | {
      /** Recalled memory was put in the prompt (or nothing matched: `snippets` is 0). */
      type: 'hydrated';
      level: 'info';
      hookId: string;
      operationId?: string;
      snippets: number;
      truncated: boolean;
      /** Whether an earlier step of the same turn already recalled it. */
      cached: boolean;
    }
  | {
      /** Recall did not answer within `hydrate.timeoutMs`: the model was called without it. */
      type: 'hydration-timeout';
      level: 'warning';
      timeoutMs: number;
      error: MemoryError;
    }
  | {
      /** Recall failed (the hook was refused, or its delivery failed): the model was called without it. */
      type: 'hydration-failed';
      level: 'warning';
      hookId?: string;
      error: MemoryError;
    }
  | {
      /** The turn was captured through `post_run_capture`. */
      type: 'captured';
      level: 'info';
      hookId: string;
      operationId?: string;
    }
  | {
      /** The turn was handed to the service's job queue (`capture.delivery: 'queue'`); a worker records its outcome. */
      type: 'capture-queued';
      level: 'info';
      hookId: string;
      jobId?: string;
    }
  | {
      /** The binding does not take this capture (its `postRunCapture` opt-in is off). */
      type: 'capture-skipped';
      level: 'warning';
      hookId: string;
      reason: string;
    }
  | {
      /** The capture failed; the failed operation and delivery are in the service's logs. */
      type: 'capture-failed';
      level: 'error';
      hookId?: string;
      operationId?: string;
      error: MemoryError;
    };

/** Receives middleware events. It runs inside the model call: keep it quick; a throw is ignored. */
export type MemplaneEventListener = (event: MemplaneMiddlewareEvent) => void;

/** Calls the listener, isolating the reply from it: a throwing listener changes nothing. */
export function emitter(listener: MemplaneEventListener | undefined): MemplaneEventListener {
  return (event) => {
    if (listener === undefined) return;
    try {
      listener(event);
    } catch {
      // The listener is the host's; its failure must not break the model call it observes.
    }
  };
}
