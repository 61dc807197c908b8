import { describe, expect, it } from 'vitest';
import { minimalAdapterOptions } from './__fixtures__/minimal-adapter';
import { runConformance } from './run-conformance';

describe('the suite and an adapter without optional surfaces', () => {
  it('passes it, checking each declared-off surface throws UnsupportedCapabilityError and skipping what needs a capability', async () => {
    const report = await runConformance(minimalAdapterOptions());
    const byId = new Map(report.results.map((result) => [result.id, result]));
    expect(report.results.filter((result) => result.status === 'failed').map((result) => `${result.id}: ${result.error}`)).toEqual([]);
    for (const surface of ['correct', 'profile', 'getExtractionJob', 'listExtractionJobs', 'retryExtractionJob', 'explain', 'metadataFilter']) {
      expect(byId.get(`capabilities.${surface}.declared-off`)?.status, surface).toBe('passed');
      expect(byId.get(`capabilities.${surface}.declared-on`)?.status, surface).toBe('skipped');
    }
    for (const id of ['extraction.job.reaches-succeeded', 'pagination.cursor.stale-filter', 'usage.correct', 'forget.profile', 'scope.isolation.companyId.correct']) {
      expect(byId.get(id)).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^the adapter does not declare capabilities\./) });
    }
    expect(report.passed).toBeGreaterThan(80);
  });
});
