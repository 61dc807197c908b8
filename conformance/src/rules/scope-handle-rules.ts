import { MemoryError } from '@memplane/core';
import { anyMemoryError, expectEqual, expectMarkerAbsent, expectMarkerFound, expectRejection, expectTrue, preview } from '../assertions';
import { whenDeclared, type ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';
import { isolatedScopeFields } from './scope-field-rules';

type IsolatedField = (typeof isolatedScopeFields)[number];

/** Writes a record under `field` A and returns what the rule needs to address it under A and B. */
async function writeUnderA(context: RuleContext, field: IsolatedField) {
  const valueA = context.uniqueValue(`${field}-a`);
  const valueB = context.uniqueValue(`${field}-b`);
  const marker = context.marker(field);
  const scopeA = context.scope({ [field]: valueA });
  const scopeB = context.scope({ [field]: valueB });
  const handle = await context.writeMarkedRecord(scopeA, marker);
  return { valueA, valueB, marker, scopeA, scopeB, handle };
}

async function expectStillThere(context: RuleContext, written: Awaited<ReturnType<typeof writeUnderA>>, field: IsolatedField, after: string) {
  const own = await context.adapter.get(written.handle, written.scopeA);
  expectTrue(
    own !== null && own.text.includes(written.marker),
    `Expected the record written under ${field}=${written.valueA} to keep its text after ${after}, but get under ${field}=${written.valueA} returned ${preview(own)}.`,
  );
  expectMarkerFound(await context.listAll(written.scopeA), written.marker, `a list with ${field}=${written.valueA} after ${after}`);
}

function getIsolationRule(field: IsolatedField): ConformanceRule {
  return {
    id: `scope.isolation.${field}.get`,
    family: 'scope',
    description: `get of a handle written under ${field} A, with ${field} B of the same company, returns null.`,
    async run(context) {
      const written = await writeUnderA(context, field);
      expectEqual(await context.adapter.get(written.handle, written.scopeB), null, `get with ${field}=${written.valueB} of a record written under ${field}=${written.valueA}`);
      const own = await context.adapter.get(written.handle, written.scopeA);
      expectTrue(own !== null && own.text.includes(written.marker), `Expected get with ${field}=${written.valueA} to return the record marked ${written.marker}, but got ${preview(own)}.`);
    },
  };
}

function forgetIsolationRule(field: IsolatedField): ConformanceRule {
  return {
    id: `scope.isolation.${field}.forget`,
    family: 'scope',
    description: `forget of a handle written under ${field} A, with ${field} B of the same company, leaves the record in place.`,
    async run(context) {
      const written = await writeUnderA(context, field);
      try {
        await context.adapter.forget([written.handle], written.scopeB);
      } catch (error) {
        expectTrue(MemoryError.isInstance(error), `Expected forget with ${field}=${written.valueB} to resolve or throw a MemoryError, but it threw ${String(error)}.`);
      }
      await context.waitForConsistency();
      await expectStillThere(context, written, field, `a forget issued with ${field}=${written.valueB}`);
    },
  };
}

function correctIsolationRule(field: IsolatedField): ConformanceRule {
  return {
    id: `scope.isolation.${field}.correct`,
    family: 'scope',
    description: `correct of a handle written under ${field} A, with ${field} B of the same company, throws a MemoryError and leaves the record unchanged.`,
    requires: whenDeclared('correction'),
    async run(context) {
      const written = await writeUnderA(context, field);
      const intruder = context.marker('intruder');
      await expectRejection(
        `correct with ${field}=${written.valueB} of a record written under ${field}=${written.valueA}`,
        () => context.adapter.correct(written.handle, { text: markedText(intruder) }, written.scopeB),
        anyMemoryError,
      );
      await context.waitForConsistency();
      await expectStillThere(context, written, field, `a correct issued with ${field}=${written.valueB}`);
      expectMarkerAbsent(await context.listAll(written.scopeA), intruder, `a list with ${field}=${written.valueA}`);
    },
  };
}

/** The handle operations (get, forget, correct) honour every scope field below the company, not only the company. */
export const scopeHandleRules: ConformanceRule[] = isolatedScopeFields.flatMap((field) => [
  getIsolationRule(field),
  forgetIsolationRule(field),
  correctIsolationRule(field),
]);
