/**
 * Test-only conformance module for the CLI test: the reference adapter's own conformance entry,
 * with company isolation broken, so the CLI must exit 1.
 */
import type { MemoryAdapter } from '@memplane/core';
import { createAdapter as createReferenceAdapter, createPeerAdapter as createReferencePeer, faults } from '../../../../adapters/memory/conformance-entry';
import { leaksOtherCompanies } from './leaks-other-companies';

export { faults };

export function createAdapter(): MemoryAdapter {
  return leaksOtherCompanies(createReferenceAdapter());
}

export function createPeerAdapter(): MemoryAdapter {
  return leaksOtherCompanies(createReferencePeer());
}
