import type { CursorCodec } from '@memplane/core';
import type Supermemory from 'supermemory';
import type { SupermemoryCall } from './supermemory-call';
import type { SupermemoryJobSigner } from './supermemory-job-signer';
import type { ResolvedSupermemorySettings } from './supermemory-settings';

/** What every operation of the Supermemory adapter works with. */
export interface SupermemoryAdapterContext {
  /** The SDK client. */
  client: Supermemory;
  /** The one path every API call takes. */
  call: SupermemoryCall;
  /** Signs and checks list and job cursors. */
  cursors: CursorCodec;
  /** Signs capture job ids to the company that captured. */
  jobs: SupermemoryJobSigner;
  /** The container tag of a company. */
  containerTagOf(companyId: string): string;
  /** The resolved settings. */
  settings: ResolvedSupermemorySettings;
  /** The clock, in epoch milliseconds. */
  now(): number;
}
