import { MemoryApiCallError, MemoryError, type MemoryErrorCode, type MemoryFault } from '@memplane/core';
import { describeError, expectEqual, expectTrue, fail, preview } from '../assertions';
import type { ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';

interface FaultCase {
  /** The rule id segment. */
  name: string;
  fault: MemoryFault;
  code: MemoryErrorCode;
  isRetryable: boolean;
  retryAfterMs?: number;
  statusCode?: number;
}

const faultCases: FaultCase[] = [
  { name: 'rate-limited', fault: { kind: 'rate_limited', retryAfterSeconds: 7 }, code: 'MEMORY_RATE_LIMITED', isRetryable: true, retryAfterMs: 7000 },
  { name: 'server-error-503', fault: { kind: 'server_error', status: 503 }, code: 'MEMORY_API_CALL', isRetryable: true, statusCode: 503 },
  { name: 'server-error-500', fault: { kind: 'server_error', status: 500 }, code: 'MEMORY_API_CALL', isRetryable: true, statusCode: 500 },
  { name: 'timeout', fault: { kind: 'timeout' }, code: 'MEMORY_TIMEOUT', isRetryable: true },
  { name: 'malformed-body', fault: { kind: 'malformed_body' }, code: 'MEMORY_INVALID_RESPONSE', isRetryable: false },
];

type Operation = 'query' | 'list' | 'upsertRecords';
const operations: Operation[] = ['query', 'list', 'upsertRecords'];

function perform(context: RuleContext, operation: Operation): Promise<unknown> {
  const scope = context.scope();
  if (operation === 'query') return context.adapter.query({ bindingKey: context.bindingKey, scope, query: 'release checklist' });
  if (operation === 'list') return context.adapter.list({ bindingKey: context.bindingKey, scope });
  return context.adapter.upsertRecords({ bindingKey: context.bindingKey, scope, records: [{ text: markedText(context.marker('fault')) }] });
}

function expectMappedError(error: unknown, faultCase: FaultCase, action: string): void {
  expectTrue(MemoryError.isInstance(error), `Expected ${action} to throw a MemoryError with code ${faultCase.code}, but it threw ${describeError(error)}.`);
  expectEqual(error.code, faultCase.code, `the code of the error ${action} threw (${error.message})`);
  expectEqual(error.isRetryable, faultCase.isRetryable, `isRetryable of the ${faultCase.code} error ${action} threw`);
  if (faultCase.retryAfterMs !== undefined) {
    expectEqual(error.retryAfterMs, faultCase.retryAfterMs, `retryAfterMs of the ${faultCase.code} error ${action} threw (Retry-After ${faultCase.retryAfterMs / 1000} s)`);
  }
  if (faultCase.statusCode !== undefined) {
    expectTrue(MemoryApiCallError.isInstance(error), `Expected ${action} to throw a MemoryApiCallError, but it threw ${describeError(error)}.`);
    expectEqual(error.statusCode, faultCase.statusCode, `statusCode of the error ${action} threw`);
  }
}

function faultRule(faultCase: FaultCase, operation: Operation): ConformanceRule {
  return {
    id: `errors.${faultCase.name}.${operation}`,
    family: 'errors',
    description: `${operation} under an injected ${preview(faultCase.fault)} throws ${faultCase.code} (isRetryable ${faultCase.isRetryable}${faultCase.retryAfterMs === undefined ? '' : `, retryAfterMs ${faultCase.retryAfterMs}`}${faultCase.statusCode === undefined ? '' : `, statusCode ${faultCase.statusCode}`}), and works again after faults.reset().`,
    needs: ['faults'],
    requires: (capabilities) =>
      capabilities.remoteOperations === undefined || capabilities.remoteOperations.includes(operation)
        ? undefined
        : `The adapter declares capabilities.remoteOperations without ${operation}: it serves ${operation} locally, so no provider fault can reach it.`,
    async run(context) {
      const faults = context.faults;
      if (faults === undefined) return fail('This rule needs a fault injector (options.faults).');
      const action = `${operation} under the ${faultCase.fault.kind} fault`;
      let outcome: { resolved: unknown } | { thrown: unknown };
      try {
        await faults.inject(faultCase.fault);
        outcome = await perform(context, operation).then(
          (resolved) => ({ resolved }),
          (thrown: unknown) => ({ thrown }),
        );
      } finally {
        await faults.reset();
      }
      if ('resolved' in outcome) {
        fail(`Expected ${action} to throw ${faultCase.code}, but it resolved with ${preview(outcome.resolved)}${faultCase.fault.kind === 'malformed_body' ? ': a malformed provider body must never become a result' : ''}.`);
      }
      expectMappedError(outcome.thrown, faultCase, action);
      try {
        await perform(context, operation);
      } catch (error) {
        fail(`Expected ${operation} to work again after faults.reset(), but it threw ${describeError(error)}.`);
      }
      return undefined;
    },
  };
}

/** The `errors` family: provider faults map to the right typed, retryable-or-not errors. */
export const errorRules: ConformanceRule[] = faultCases.flatMap((faultCase) =>
  operations.map((operation) => faultRule(faultCase, operation)),
);
