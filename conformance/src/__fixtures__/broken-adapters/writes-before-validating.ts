import type { MemoryRecordHandle, MemoryUsage, MemoryWarning } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (validation): upsertRecords writes record by record before looking
 * at the next one, and "repairs" blank text instead of refusing it, so a bad batch is half written.
 */
export const writesBeforeValidating: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    async upsertRecords(request) {
      const records: MemoryRecordHandle[] = [];
      const usage: MemoryUsage[] = [];
      const warnings: MemoryWarning[] = [];
      for (const record of request.records) {
        const text = record.text.trim() === '' ? '(empty)' : record.text;
        const result = await inner.upsertRecords({ ...request, records: [{ ...record, text }] });
        records.push(...(result.records ?? []));
        usage.push(...(result.usage ?? []));
        warnings.push(...(result.warnings ?? []));
      }
      return { records, usage, warnings };
    },
  });
