import { RequestHandler } from 'msw';
import { startRecording, type RecordedCall } from './recorded-call';

/**
 * A handler that records each request and then declines it, so the handlers after it
 * answer as usual and msw's own unhandled-request check still applies. (A plain
 * `http.all('*')` resolver that returns nothing would count as a match, and msw would
 * let an otherwise unanswered request through to the network.) It runs first, so the
 * body is read before any handler can consume it.
 */
export class RecordingHandler extends RequestHandler {
  readonly #calls: RecordedCall[];

  constructor(calls: RecordedCall[]) {
    super({ info: { header: 'memplane test-server recorder' }, resolver: () => undefined });
    this.#calls = calls;
  }

  override async predicate(args: { request: Request }): Promise<boolean> {
    const { call, bodyRead } = startRecording(args.request);
    this.#calls.push(call);
    await bodyRead;
    return false;
  }

  override log(): void {
    // Never answers, so there is nothing to log.
  }
}
