import type { CursorCodec } from '@memplane/core';
import type { Mem0Call } from './mem0-call';
import type { Mem0JobIds } from './mem0-job-id';
import type { ResolvedMem0Settings } from './mem0-settings';

/** What every operation of the mem0 adapter works with. */
export interface Mem0AdapterContext {
  /** The one path every SDK call takes. */
  call: Mem0Call;
  /** Signs and checks list and job cursors. */
  cursors: CursorCodec;
  /** Issues and checks extraction job ids. */
  jobIds: Mem0JobIds;
  /** The resolved settings. */
  settings: ResolvedMem0Settings;
}
