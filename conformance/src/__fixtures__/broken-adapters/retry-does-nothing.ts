import { MemoryNotFoundError } from '@memplane/core';
import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/** Test-only broken variant (extraction): retryExtractionJob answers with the job as it is and never re-drives it. */
export const retryDoesNothing: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    async retryExtractionJob(jobId, scope) {
      const { job, usage } = await inner.getExtractionJob(jobId, scope);
      if (job === null) throw new MemoryNotFoundError({ resourceId: jobId });
      return { job, ...(usage === undefined ? {} : { usage }) };
    },
  });
