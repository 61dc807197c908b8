import { MemoryError, MemoryScopeViolationError } from '@memplane/core';
import {
  anyMemoryError,
  expectEqual,
  expectMarkerAbsent,
  expectMarkerFound,
  expectNoSnippets,
  expectRejection,
  expectTrue,
  withMarker,
} from '../assertions';
import { whenDeclared, type ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';

async function expectCompanyBSeesNothing(context: RuleContext, what: string): Promise<void> {
  const otherCompany = context.otherCompanyScope();
  expectNoSnippets(await context.listAll(otherCompany), `a list in company B after ${what} in company A`);
  const { snippets: all } = await context.adapter.query({ bindingKey: context.bindingKey, scope: otherCompany, query: 'Conformance record release checklist', topK: 50 });
  expectNoSnippets(all, `a query in company B after ${what} in company A`);
}

/** Records, handles and cursors never cross companies. */
export const scopeCompanyRules: ConformanceRule[] = [
  {
    id: 'scope.isolation.companyId.query',
    family: 'scope',
    description: 'A query in company B returns nothing written in company A, even when it asks for A\'s marker.',
    async run(context) {
      const marker = context.marker('company');
      await context.writeMarkedRecord(context.scope(), marker);
      expectNoSnippets((await context.queryByMarker(context.otherCompanyScope(), marker)).all, 'a query in company B');
      expectMarkerFound((await context.queryByMarker(context.scope(), marker)).all, marker, 'a query in company A');
    },
  },
  {
    id: 'scope.isolation.companyId.list',
    family: 'scope',
    description: 'A list in company B returns nothing written in company A.',
    async run(context) {
      const marker = context.marker('company');
      await context.writeMarkedRecord(context.scope(), marker);
      expectNoSnippets(await context.listAll(context.otherCompanyScope()), 'a list in company B');
      expectMarkerFound(await context.listAll(context.scope()), marker, 'a list in company A');
    },
  },
  {
    id: 'scope.isolation.companyId.get',
    family: 'scope',
    description: 'get with company A\'s handle and company B\'s scope returns null.',
    async run(context) {
      const marker = context.marker('company');
      const handle = await context.writeMarkedRecord(context.scope(), marker);
      expectEqual(await context.adapter.get(handle, context.otherCompanyScope()), null, 'get of company A\'s handle in company B');
      const own = await context.adapter.get(handle, context.scope());
      expectTrue(own !== null && own.text.includes(marker), `Expected get of the handle in company A to return the record marked ${marker}, but got ${JSON.stringify(own)}.`);
    },
  },
  {
    id: 'scope.isolation.companyId.forget',
    family: 'scope',
    description: 'forget with company A\'s handle and company B\'s scope leaves A\'s record in place.',
    async run(context) {
      const marker = context.marker('company');
      const handle = await context.writeMarkedRecord(context.scope(), marker);
      try {
        await context.adapter.forget([handle], context.otherCompanyScope());
      } catch (error) {
        expectTrue(MemoryError.isInstance(error), `Expected forget in company B to resolve or throw a MemoryError, but it threw ${String(error)}.`);
      }
      await context.waitForConsistency();
      expectTrue((await context.adapter.get(handle, context.scope())) !== null, 'Expected company A\'s record to survive a forget issued with company B\'s scope, but get in company A returned null.');
      expectMarkerFound(await context.listAll(context.scope()), marker, 'a list in company A after company B tried to forget the record');
    },
  },
  {
    id: 'scope.isolation.companyId.correct',
    family: 'scope',
    description: 'correct with company A\'s handle and company B\'s scope throws a MemoryError and leaves A\'s record unchanged.',
    requires: whenDeclared('correction'),
    async run(context) {
      const [marker, intruder] = [context.marker('company'), context.marker('intruder')];
      const handle = await context.writeMarkedRecord(context.scope(), marker);
      await expectRejection(
        'correct of company A\'s handle with company B\'s scope',
        () => context.adapter.correct(handle, { text: markedText(intruder) }, context.otherCompanyScope()),
        anyMemoryError,
      );
      await context.waitForConsistency();
      const own = await context.adapter.get(handle, context.scope());
      expectTrue(
        own !== null && own.text.includes(marker) && !own.text.includes(intruder),
        `Expected company A's record to keep its text after company B tried to correct it, but get returned ${JSON.stringify(own)}.`,
      );
      expectMarkerAbsent(await context.listAll(context.scope()), intruder, 'a list in company A');
    },
  },
  {
    id: 'scope.isolation.companyId.profile',
    family: 'scope',
    description: 'profile in company B neither lists nor summarises a record of company A.',
    requires: whenDeclared('profile'),
    async run(context) {
      const marker = context.marker('profile');
      await context.writeMarkedRecord(context.scope(), marker);
      const profile = await context.adapter.profile(context.otherCompanyScope());
      expectTrue(!profile.summary.includes(marker), `Expected company B's profile summary not to mention company A's record ${marker}, but it reads ${JSON.stringify(profile.summary)}.`);
      expectNoSnippets(profile.items ?? [], 'the profile items of company B');
    },
  },
  {
    id: 'scope.isolation.companyId.upsert',
    family: 'scope',
    description: 'Identical records upserted in companies A and B stay separate: each company sees one copy, and forgetting B\'s leaves A\'s.',
    async run(context) {
      const marker = context.marker('twin');
      const metadata = { twin: marker };
      await context.writeMarkedRecord(context.scope(), marker, { metadata });
      const handleB = await context.writeMarkedRecord(context.otherCompanyScope(), marker, { metadata });
      expectEqual(withMarker(await context.listAll(context.scope()), marker).length, 1, 'the number of copies company A lists');
      expectEqual(withMarker(await context.listAll(context.otherCompanyScope()), marker).length, 1, 'the number of copies company B lists');
      await context.adapter.forget([handleB], context.otherCompanyScope());
      await context.waitForConsistency();
      expectMarkerFound(await context.listAll(context.scope()), marker, 'a list in company A after company B forgot its copy');
      expectMarkerAbsent(await context.listAll(context.otherCompanyScope()), marker, 'a list in company B after it forgot its copy');
    },
  },
  {
    id: 'scope.isolation.companyId.capture-record',
    family: 'scope',
    description: 'A capture in capture_record mode in company A is visible in A and invisible in company B.',
    async run(context) {
      const marker = context.marker('capture');
      const scope = context.scope();
      await context.captureAndSettle({ scope, source: context.source(scope), payload: { text: markedText(marker) }, mode: 'capture_record' });
      expectMarkerFound(await context.listAll(scope), marker, 'a list in company A after capture_record');
      await expectCompanyBSeesNothing(context, 'capture_record');
    },
  },
  {
    id: 'scope.isolation.companyId.capture-extraction',
    family: 'scope',
    description: 'Records extracted from a capture in company A appear in A once the jobs finish, and never in company B.',
    requires: whenDeclared('asyncExtraction'),
    async run(context) {
      const scope = context.scope();
      const { jobs } = await context.captureAndSettle({
        scope,
        source: context.source(scope),
        payload: { text: `${markedText(context.marker('residue'))} The team prefers small pull requests.` },
      });
      for (const job of jobs) expectEqual(job.status, 'succeeded', `the final status of extraction job ${job.providerJobId}`);
      expectTrue((await context.listAll(scope)).length > 0, 'Expected the extracted records to be listed in company A once the extraction jobs finished, but company A lists nothing.');
      await expectCompanyBSeesNothing(context, 'an extracting capture');
    },
  },
  ...(['capture', 'upsertRecords'] as const).map(
    (operation): ConformanceRule => ({
      id: `scope.source-mismatch.${operation}`,
      family: 'scope',
      description: `${operation} whose source.companyId differs from scope.companyId throws MemoryScopeViolationError and writes nothing.`,
      async run(context) {
        const marker = context.marker('mismatch');
        const scope = context.scope();
        const source = context.source(scope, { companyId: context.ids.otherCompanyId });
        const call =
          operation === 'capture'
            ? () => context.adapter.capture({ bindingKey: context.bindingKey, scope, source, payload: { text: markedText(marker) }, mode: 'capture_record' })
            : () => context.adapter.upsertRecords({ bindingKey: context.bindingKey, scope, source, records: [{ text: markedText(marker) }] });
        await expectRejection(`${operation} with a source of company B in company A's scope`, call, {
          name: 'MemoryScopeViolationError',
          matches: MemoryScopeViolationError.isInstance,
        });
        await context.waitForConsistency();
        expectNoSnippets(await context.listAll(scope), `a list in company A after the refused ${operation}`);
        expectNoSnippets(await context.listAll(context.otherCompanyScope()), `a list in company B after the refused ${operation}`);
      },
    }),
  ),
];
