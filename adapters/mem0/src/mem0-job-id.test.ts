import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMem0JobIds } from './mem0-job-id';

const secret = 'mem0-job-id-test-secret-0123456789';
const scopeArbitrary = fc.record(
  { companyId: fc.string({ minLength: 1, maxLength: 40 }), agentId: fc.string({ minLength: 1, maxLength: 20 }), projectId: fc.string({ minLength: 1, maxLength: 20 }) },
  { requiredKeys: ['companyId'] },
);
const eventIdArbitrary = fc.uuid();

describe('mem0 job ids', () => {
  it('read back the event and scope digest for the company that captured, in any process sharing the secret', () => {
    fc.assert(
      fc.property(eventIdArbitrary, scopeArbitrary, (eventId, scope) => {
        const jobId = createMem0JobIds(secret).issue(eventId, scope);
        const read = createMem0JobIds(secret).read(jobId, { companyId: scope.companyId });
        expect(read).toEqual({ eventId, scopeDigest: createMem0JobIds(secret).digest(scope) });
      }),
    );
  });

  it('refuse another company, another secret, and any changed character', () => {
    fc.assert(
      fc.property(eventIdArbitrary, scopeArbitrary, fc.string({ minLength: 1, maxLength: 40 }), fc.nat(), (eventId, scope, otherCompany, position) => {
        const ids = createMem0JobIds(secret);
        const jobId = ids.issue(eventId, scope);
        if (otherCompany !== scope.companyId) expect(ids.read(jobId, { companyId: otherCompany })).toBeUndefined();
        expect(createMem0JobIds('another secret, also long enough').read(jobId, scope)).toBeUndefined();
        const index = position % jobId.length;
        const changed = `${jobId.slice(0, index)}${jobId[index] === 'A' ? 'B' : 'A'}${jobId.slice(index + 1)}`;
        expect(ids.read(changed, scope)).toBeUndefined();
      }),
    );
  });
});
