import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/** Test-only broken variant (extraction): polling a job always reports it running, so it never finishes. */
export const extractionNeverFinishes: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    async getExtractionJob(jobId, scope) {
      const result = await inner.getExtractionJob(jobId, scope);
      if (result.job === null) return result;
      const { finishedAt: _hidden, error: _alsoHidden, ...job } = result.job;
      return { ...result, job: { ...job, status: 'running' } };
    },
  });
