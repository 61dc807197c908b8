// The token table of the service's store, as the host uses it.
export type { MemoryTokenRow, MemoryTokenStore } from '@memplane/service/store';
