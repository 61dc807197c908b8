/** Stands in, for the documentation's samples, for the entry point of an author's adapter package. */
export { createAcmeAdapter, type AcmeAdapterSettings } from './acme-adapter.js';
