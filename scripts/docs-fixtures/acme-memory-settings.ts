/** Stands in, for the documentation's samples, for the settings module of a scaffolded adapter. */
export type { AcmeMemoryAdapterSettings } from './acme-memory-adapter.js';
