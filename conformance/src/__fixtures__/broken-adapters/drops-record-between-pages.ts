import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/** Test-only broken variant (pagination): every page after the first loses its first record. */
export const dropsRecordBetweenPages: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    async list(request) {
      const page = await inner.list(request);
      return request.cursor === undefined ? page : { ...page, items: page.items.slice(1) };
    },
  });
