import type { MemoryCorrectionPatch } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

function withoutSummary<Value extends { summary?: string }>(value: Value): Omit<Value, 'summary'> {
  const { summary: _dropped, ...rest } = value;
  return rest;
}

/**
 * Test-only broken variant (provenance): the summary never reaches the store, as with a provider
 * mapping that has no summary field. Upserts write records without it, and correct sends only the
 * other fields of the patch; a patch with nothing else changes nothing and still reports success.
 */
export const dropsSummary: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    upsertRecords: (request) => inner.upsertRecords({ ...request, records: request.records.map(withoutSummary) }),
    async correct(handle, patch, scope) {
      const rest: MemoryCorrectionPatch = withoutSummary(patch);
      if (rest.text === undefined && rest.metadata === undefined) return { record: handle };
      return inner.correct(handle, rest, scope);
    },
  });
