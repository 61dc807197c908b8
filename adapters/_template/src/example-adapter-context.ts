import type { CursorCodec } from '@memplane/core';
import type { ExampleCall } from './example-call';
import type { ExampleClient } from './example-client';

/** What every operation of the Example adapter works with. */
export interface ExampleAdapterContext {
  /** The SDK client. */
  client: ExampleClient;
  /** The one path every API call takes. */
  call: ExampleCall;
  /** Signs and checks list cursors. */
  cursors: CursorCodec;
}
