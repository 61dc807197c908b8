import { parseInput } from '@memplane/core';
import type { Path, RequestHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { z } from 'zod';
import { createFaultInjector, type FaultInjectorSettings, type TestServerFaults } from './fault-injector';
import type { RecordedCall } from './recorded-call';
import { RecordingHandler } from './recording-handler';

/** Settings of {@link createTestServer}. */
export interface TestServerSettings {
  /**
   * URL patterns (msw paths, such as `https://api.example.test/*`) where the fault in
   * force answers before any other handler, so fakes need not call `faults.respond`.
   */
  faultUrls?: Path[];
  /** Settings of the server's fault switch. */
  faults?: FaultInjectorSettings;
}

/** An msw server that records every request and can inject faults. */
export interface TestServer {
  /**
   * The msw server. Add handlers through {@link TestServer.use}, not `server.use`: handlers
   * added on the server directly run before the recorder, so their requests go unrecorded.
   */
  readonly server: SetupServer;
  /** Every request since the last `reset()`, in the order they started. Cleared in place on reset. */
  readonly calls: ReadonlyArray<RecordedCall>;
  /** The fault switch. Its faults apply at `faultUrls`, and in fakes that call `faults.respond`. */
  readonly faults: TestServerFaults;
  /** Starts intercepting. A request no handler answers fails instead of reaching the network. */
  start(): void;
  /** Stops intercepting and releases requests held by a `timeout` fault. */
  stop(): void;
  /** Drops the handlers added with `use`, the recorded calls and the faults. */
  reset(): void;
  /** Adds handlers in front of the current ones until the next `reset()`. */
  use(...handlers: RequestHandler[]): void;
}

const settingsSchema = z.strictObject({
  faultUrls: z.array(z.union([z.string().min(1), z.instanceof(RegExp)])).optional(),
  faults: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Creates an msw server for tests of hosted adapters. Every request is recorded (method,
 * URL, headers and body, read from a clone) before any handler answers it, and requests
 * no handler answers fail, so nothing escapes to the network.
 */
export function createTestServer(initialHandlers: RequestHandler[] = [], settings: TestServerSettings = {}): TestServer {
  const valid = parseInput(settingsSchema, settings, 'test server settings');
  const faults = createFaultInjector(settings.faults);
  const calls: RecordedCall[] = [];
  let addedHandlers: RequestHandler[] = [];
  let listening = false;

  const recorder = new RecordingHandler(calls);
  const faultHandlers = (valid.faultUrls ?? []).map((urlPattern) => faults.faultHandler(urlPattern));
  const server = setupServer();

  // The whole list is set at once, so the recorder and the fault handlers always come first.
  const applyHandlers = () => server.resetHandlers(recorder, ...faultHandlers, ...addedHandlers, ...initialHandlers);
  applyHandlers();

  return {
    server,
    calls,
    faults,
    start() {
      if (listening) return;
      server.listen({ onUnhandledRequest: 'error' });
      listening = true;
    },
    stop() {
      faults.reset();
      if (!listening) return;
      server.close();
      listening = false;
    },
    reset() {
      addedHandlers = [];
      applyHandlers();
      calls.length = 0;
      faults.reset();
    },
    use(...handlers) {
      addedHandlers = [...handlers, ...addedHandlers];
      applyHandlers();
    },
  };
}
