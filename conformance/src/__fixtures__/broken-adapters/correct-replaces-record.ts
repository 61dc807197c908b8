import { MemoryNotFoundError } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (provenance): correct rewrites the record from the patch alone, as an
 * adapter does over a provider whose update replaces the whole record: the text stays (the patch
 * or the old one), but a summary or metadata the patch does not name is lost.
 */
export const correctReplacesRecord: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    async correct(handle, patch, scope) {
      const current = await inner.get(handle, scope);
      if (current === null) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
      await inner.forget([handle], scope);
      const { records } = await inner.upsertRecords({
        bindingKey: 'conformance',
        scope: current.scope ?? scope,
        ...(current.source === undefined ? {} : { source: current.source }),
        records: [
          {
            text: patch.text ?? current.text,
            ...(patch.summary === undefined ? {} : { summary: patch.summary }),
            ...(patch.metadata === undefined ? {} : { metadata: patch.metadata }),
          },
        ],
      });
      const [record] = records ?? [];
      if (record === undefined) throw new MemoryNotFoundError({ resourceId: handle.providerRecordId });
      return { record, supersedes: handle };
    },
  });
