import { parseInput, type MemoryFault, type MemoryFaultInjector } from '@memplane/core';
import { http, type HttpHandler, type Path } from 'msw';
import { z } from 'zod';
import { createErrorResponse, createMalformedResponse, type HttpErrorFault, type MalformedBodyStyle } from './fault-responses';
import { hangUntilAborted } from './hang-until-aborted';
import { memoryFaultSchema } from './memory-fault-schema';

/** Settings of {@link createFaultInjector}. */
export interface FaultInjectorSettings {
  /** How a `malformed_body` fault answers. Default `wrong-shape`. */
  malformedStyle?: MalformedBodyStyle;
  /**
   * Adds what a provider puts on its error responses, such as AWS's `x-amzn-errortype`
   * header, to the 429 and 5xx answers of `rate_limited` and `server_error`. Change the
   * given response's headers in place, or return another response to use instead.
   */
  decorateError?: (response: Response, fault: HttpErrorFault) => Response | void;
}

/**
 * The fault switch of a provider fake. It implements `MemoryFaultInjector`, so the
 * conformance suite can drive it, and answers HTTP requests while a fault is in force.
 */
export interface TestServerFaults extends MemoryFaultInjector {
  /**
   * Puts a fault in force until `reset()`. One HTTP fault is in force at a time (the
   * latest replaces the previous); `extraction_failure` can be in force beside it.
   * Throws `MemoryValidationError` naming the field for an invalid fault.
   */
  inject(fault: MemoryFault): void;
  /** Removes every fault and releases every request held by a `timeout` fault. */
  reset(): void;
  /** The faults in force, oldest first. */
  readonly active: ReadonlyArray<MemoryFault>;
  /**
   * The answer to `request` under the HTTP fault in force, or undefined when none is.
   * A stateful fake calls it first in each handler and returns the answer when there is one.
   * A `timeout` answer settles only when the request's signal aborts or `reset()` runs.
   */
  respond(request: Request): Response | Promise<Response> | undefined;
  /** Whether extraction jobs started now should fail (`extraction_failure` is in force). */
  isExtractionFailureInForce(): boolean;
  /** An msw handler for `urlPattern` that answers with the fault in force and otherwise falls through. */
  faultHandler(urlPattern: Path): HttpHandler;
  /** How many requests a `timeout` fault holds right now. */
  readonly hangingRequestCount: number;
}

const settingsSchema = z.strictObject({
  malformedStyle: z.enum(['wrong-shape', 'invalid-json']).optional(),
  decorateError: z
    .custom<NonNullable<FaultInjectorSettings['decorateError']>>((value) => typeof value === 'function', 'must be a function')
    .optional(),
});

const isHttpFault = (fault: MemoryFault) => fault.kind !== 'extraction_failure';

/** Creates a fault switch for a provider fake. */
export function createFaultInjector(settings: FaultInjectorSettings = {}): TestServerFaults {
  const valid = parseInput(settingsSchema, settings, 'fault injector settings');
  const malformedStyle = valid.malformedStyle ?? 'wrong-shape';
  let active: MemoryFault[] = [];
  const hanging = new Set<() => void>();

  function decorate(fault: HttpErrorFault): Response {
    const response = createErrorResponse(fault);
    return valid.decorateError?.(response, fault) ?? response;
  }

  const faults: TestServerFaults = {
    inject(fault) {
      const validFault: MemoryFault = parseInput(memoryFaultSchema, fault, 'fault', 'fault');
      active = [...active.filter((current) => isHttpFault(current) !== isHttpFault(validFault)), validFault];
    },
    reset() {
      active = [];
      for (const release of [...hanging]) release();
    },
    get active() {
      return [...active];
    },
    respond(request) {
      const fault = active.findLast(isHttpFault);
      switch (fault?.kind) {
        case 'rate_limited':
        case 'server_error':
          return decorate(fault);
        case 'timeout':
          return hangUntilAborted(request, hanging);
        case 'malformed_body':
          return createMalformedResponse(malformedStyle);
        default:
          return undefined;
      }
    },
    isExtractionFailureInForce() {
      return active.some((fault) => fault.kind === 'extraction_failure');
    },
    faultHandler(urlPattern) {
      return http.all(urlPattern, ({ request }) => faults.respond(request));
    },
    get hangingRequestCount() {
      return hanging.size;
    },
  };
  return faults;
}
