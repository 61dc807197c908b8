import { describeError, expectEqual, expectMarkerAbsent, expectMarkerFound, expectTrue, fail, hasMarker } from '../assertions';
import { whenDeclared, type ConformanceRule } from '../conformance-rule';
import type { RuleContext } from '../rule-context';

async function writeAndForget(context: RuleContext) {
  const scope = context.scope({ agentId: context.ids.agentId });
  const [kept, forgotten] = [context.marker('kept'), context.marker('forgotten')];
  await context.writeMarkedRecord(scope, kept);
  const handle = await context.writeMarkedRecord(scope, forgotten);
  await context.adapter.forget([handle], scope);
  await context.waitForConsistency();
  return { scope, kept, forgotten, handle };
}

async function expectHarmless(action: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    fail(`Expected ${action} to be harmless, but it threw ${describeError(error)}.`);
  }
}

/** The `forget` family: a forgotten record is gone for good, and forgetting is idempotent. */
export const forgetRules: ConformanceRule[] = [
  {
    id: 'forget.get',
    family: 'forget',
    description: 'get of a forgotten record returns null.',
    async run(context) {
      const { scope, handle } = await writeAndForget(context);
      expectEqual(await context.adapter.get(handle, scope), null, 'get of a forgotten record');
    },
  },
  {
    id: 'forget.list',
    family: 'forget',
    description: 'A forgotten record never comes back on list.',
    async run(context) {
      const { scope, kept, forgotten } = await writeAndForget(context);
      const listed = await context.listAll(scope);
      expectMarkerAbsent(listed, forgotten, 'a list after forget');
      expectMarkerFound(listed, kept, 'a list after forgetting another record');
    },
  },
  {
    id: 'forget.query',
    family: 'forget',
    description: 'A forgotten record never comes back on query, even when the query names it.',
    async run(context) {
      const { scope, forgotten } = await writeAndForget(context);
      expectMarkerAbsent((await context.queryByMarker(scope, forgotten)).all, forgotten, 'a query for the forgotten record\'s marker');
    },
  },
  {
    id: 'forget.profile',
    family: 'forget',
    description: 'A forgotten record is not among the profile items.',
    requires: whenDeclared('profile'),
    async run(context) {
      const { scope, forgotten } = await writeAndForget(context);
      const profile = await context.adapter.profile(scope);
      const leaked = (profile.items ?? []).filter((item) => hasMarker(item, forgotten));
      expectTrue(leaked.length === 0, `Expected the profile items not to include the forgotten record marked ${forgotten}, but they did.`);
    },
  },
  {
    id: 'forget.twice',
    family: 'forget',
    description: 'Forgetting the same record twice is harmless and it stays forgotten.',
    async run(context) {
      const { scope, handle, forgotten } = await writeAndForget(context);
      await expectHarmless('forgetting an already forgotten record', () => context.adapter.forget([handle], scope));
      await context.waitForConsistency();
      expectEqual(await context.adapter.get(handle, scope), null, 'get of a record forgotten twice');
      expectMarkerAbsent(await context.listAll(scope), forgotten, 'a list after forgetting twice');
    },
  },
  {
    id: 'forget.leaves-others',
    family: 'forget',
    description: 'Forgetting one record of three leaves the other two readable by get and list.',
    async run(context) {
      const scope = context.scope();
      const markers = [context.marker('one'), context.marker('two'), context.marker('three')];
      const handles = await context.writeRecords(scope, markers.map((marker) => `Conformance record ${marker} about the release checklist.`));
      const [first, ...others] = handles;
      if (first === undefined) return fail('Expected three handles.');
      await context.adapter.forget([first], scope);
      await context.waitForConsistency();
      for (const handle of others) {
        expectTrue((await context.adapter.get(handle, scope)) !== null, `Expected the record ${handle.providerRecordId} to survive forgetting another record, but get returned null.`);
      }
      const listed = await context.listAll(scope);
      expectMarkerAbsent(listed, markers[0] as string, 'a list after forget');
      for (const marker of markers.slice(1)) expectMarkerFound(listed, marker, 'a list after forgetting another record');
      return undefined;
    },
  },
  {
    id: 'forget.unknown-handle',
    family: 'forget',
    description: 'Forgetting a handle that never existed, or one of another adapter, is harmless and changes nothing.',
    async run(context) {
      const scope = context.scope();
      const marker = context.marker('bystander');
      await context.writeMarkedRecord(scope, marker);
      await expectHarmless('forgetting an unknown handle', () =>
        context.adapter.forget([{ providerKey: context.adapter.key, providerRecordId: context.uniqueValue('never-written') }], scope),
      );
      await expectHarmless('forgetting a handle of another adapter', () =>
        context.adapter.forget([{ providerKey: `${context.adapter.key}-other`, providerRecordId: context.uniqueValue('elsewhere') }], scope),
      );
      await context.waitForConsistency();
      expectMarkerFound(await context.listAll(scope), marker, 'a list after forgetting unknown handles');
    },
  },
];
