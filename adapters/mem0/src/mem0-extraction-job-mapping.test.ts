import { describe, expect, it } from 'vitest';
import { toJobStatus } from './mem0-extraction-job-mapping';

describe('mem0 event statuses', () => {
  it('maps the four documented statuses, and anything else, a property name of every object included, to running (not final)', () => {
    expect(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED'].map(toJobStatus)).toEqual(['queued', 'running', 'succeeded', 'failed']);
    for (const status of ['CANCELLED', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect(toJobStatus(status), status).toBe('running');
  });
});
