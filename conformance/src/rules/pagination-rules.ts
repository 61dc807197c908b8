import { InvalidCursorError, type MemoryListPage, type MemoryRecordHandle, type MemoryScope } from '@memplane/core';
import { describeError, expectEqual, expectRejection, expectTrue, fail, preview } from '../assertions';
import { whenDeclared, type ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';

const invalidCursor = { name: 'InvalidCursorError', matches: InvalidCursorError.isInstance };

async function writeMany(context: RuleContext, scope: MemoryScope, count: number, metadata?: Record<string, unknown>) {
  const records = Array.from({ length: count }, (_, index) => ({
    text: markedText(context.marker(`page${index}`)),
    ...(metadata === undefined ? {} : { metadata }),
  }));
  return context.writeRecords(scope, records);
}

async function listPage(context: RuleContext, scope: MemoryScope, limit: number, cursor?: string, metadataFilter?: Record<string, unknown>): Promise<MemoryListPage> {
  return context.adapter.list({
    bindingKey: context.bindingKey,
    scope,
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    ...(metadataFilter === undefined ? {} : { metadataFilter }),
  });
}

async function firstCursor(context: RuleContext, scope: MemoryScope, metadataFilter?: Record<string, unknown>): Promise<string> {
  const page = await listPage(context, scope, 2, undefined, metadataFilter);
  if (page.nextCursor === undefined) return fail(`Expected a list with limit 2 over 6 records to return a nextCursor, but it returned ${page.items.length} items and no cursor.`);
  return page.nextCursor;
}

function flipMiddleCharacter(cursor: string): string {
  let index = Math.floor(cursor.length / 2);
  if (cursor[index] === '.' || cursor[index] === '=') index = Math.max(0, index - 1);
  const replacement = cursor[index] === 'A' ? 'B' : 'A';
  return `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
}

/** Fails unless listing with `cursor` throws InvalidCursorError; names the other scope's records if any leaked. */
async function expectCursorRefused(context: RuleContext, action: string, scope: MemoryScope, cursor: string, metadataFilter?: Record<string, unknown>): Promise<void> {
  let page: MemoryListPage;
  try {
    page = await listPage(context, scope, 2, cursor, metadataFilter);
  } catch (error) {
    expectTrue(InvalidCursorError.isInstance(error), `Expected ${action} to throw InvalidCursorError, but it threw ${describeError(error)}.`);
    return;
  }
  const foreign = page.items.filter((item) => item.scope !== undefined && item.scope.companyId !== scope.companyId);
  fail(`Expected ${action} to throw InvalidCursorError, but it resolved with ${page.items.length} items${foreign.length > 0 ? `, ${foreign.length} of them from another company` : ''}: ${preview(page.items.map((item) => item.text))}.`);
}

function idOf(handle: MemoryRecordHandle): string {
  return `${handle.providerKey}:${handle.providerRecordId}`;
}

/** The `pagination` family: limits, complete cursor walks and refused cursors. */
export const paginationRules: ConformanceRule[] = [
  {
    id: 'pagination.limit',
    family: 'pagination',
    description: 'Every page of a list holds at most `limit` items (12 records, limit 5).',
    async run(context) {
      const scope = context.scope();
      await writeMany(context, scope, 12);
      let cursor: string | undefined;
      let total = 0;
      for (let page = 1; page <= 20; page += 1) {
        const result = await listPage(context, scope, 5, cursor);
        expectTrue(result.items.length <= 5, `Expected page ${page} to hold at most 5 items (the limit), but it held ${result.items.length}.`);
        total += result.items.length;
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      expectEqual(total, 12, 'the number of items over all pages');
    },
  },
  {
    id: 'pagination.walk',
    family: 'pagination',
    description: 'Walking 23 records with limit 5 visits every record exactly once, and the last page has no nextCursor.',
    async run(context) {
      const scope = context.scope();
      const written = (await writeMany(context, scope, 23)).map(idOf);
      const visited = (await context.listAll(scope, { limit: 5 })).map((item) => idOf(item.handle));
      const duplicates = visited.filter((id, index) => visited.indexOf(id) !== index);
      expectTrue(duplicates.length === 0, `Expected every record once, but the walk returned duplicates ${preview(duplicates)}.`);
      const missing = written.filter((id) => !visited.includes(id));
      expectTrue(missing.length === 0, `Expected the walk to visit all 23 records, but it missed ${missing.length}: ${preview(missing)}.`);
      expectEqual(visited.length, 23, 'the number of records the walk visited');
    },
  },
  {
    id: 'pagination.walk-while-changing',
    family: 'pagination',
    description: 'Records added and forgotten during a walk: records present throughout are seen exactly once, forgotten ones never after being forgotten, no duplicates.',
    async run(context) {
      const scope = context.scope();
      const stable = await writeMany(context, scope, 15);
      const first = await listPage(context, scope, 4);
      if (first.nextCursor === undefined) return fail('Expected a list with limit 4 over 15 records to return a nextCursor.');
      const seenFirst = new Set(first.items.map((item) => idOf(item.handle)));
      const unseen = stable.filter((handle) => !seenFirst.has(idOf(handle)));
      const forgotten = [...unseen.slice(0, 2), ...stable.filter((handle) => seenFirst.has(idOf(handle))).slice(0, 1)];
      await context.adapter.forget(forgotten, scope);
      await writeMany(context, scope, 3);
      const later: string[] = [];
      let cursor: string | undefined = first.nextCursor;
      for (let page = 0; cursor !== undefined; page += 1) {
        if (page > 50) return fail('Expected the walk to end, but it ran past 50 pages.');
        const result: MemoryListPage = await listPage(context, scope, 4, cursor);
        later.push(...result.items.map((item) => idOf(item.handle)));
        cursor = result.nextCursor;
      }
      const all = [...seenFirst, ...later];
      const duplicates = all.filter((id, index) => all.indexOf(id) !== index);
      expectTrue(duplicates.length === 0, `Expected no duplicates in a walk during changes, but saw ${preview(duplicates)} twice.`);
      const forgottenIds = new Set(forgotten.map(idOf));
      const resurfaced = later.filter((id) => forgottenIds.has(id));
      expectTrue(resurfaced.length === 0, `Expected forgotten records not to appear after they were forgotten, but the walk returned ${preview(resurfaced)}.`);
      const missing = stable.map(idOf).filter((id) => !forgottenIds.has(id) && !all.includes(id));
      expectTrue(missing.length === 0, `Expected every record present throughout the walk to be seen once, but ${missing.length} were never seen: ${preview(missing)}.`);
    },
  },
  {
    id: 'pagination.last-page',
    family: 'pagination',
    description: 'A list that fits in one page, and a list of an empty scope, return no nextCursor.',
    async run(context) {
      const scope = context.scope();
      await writeMany(context, scope, 3);
      const page = await listPage(context, scope, 10);
      expectEqual(page.items.length, 3, 'the number of items of a one-page list');
      expectEqual(page.nextCursor, undefined, 'the nextCursor of the last page');
      const empty = await listPage(context, context.otherCompanyScope(), 10);
      expectEqual(empty.items.length, 0, 'the number of items of an empty scope');
      expectEqual(empty.nextCursor, undefined, 'the nextCursor of an empty scope\'s list');
    },
  },
  {
    id: 'pagination.cursor.tampered',
    family: 'pagination',
    description: 'A cursor with one character flipped in the middle, or with characters appended, is refused with InvalidCursorError.',
    async run(context) {
      const scope = context.scope();
      await writeMany(context, scope, 6);
      const cursor = await firstCursor(context, scope);
      await expectCursorRefused(context, 'a list with a cursor flipped in the middle', scope, flipMiddleCharacter(cursor));
      await expectCursorRefused(context, 'a list with a cursor with characters appended', scope, `${cursor}AA`);
    },
  },
  {
    id: 'pagination.cursor.truncated',
    family: 'pagination',
    description: 'A cursor cut in half, or missing its last character, is refused with InvalidCursorError.',
    async run(context) {
      const scope = context.scope();
      await writeMany(context, scope, 6);
      const cursor = await firstCursor(context, scope);
      await expectCursorRefused(context, 'a list with a cursor cut in half', scope, cursor.slice(0, Math.ceil(cursor.length / 2)));
      await expectCursorRefused(context, 'a list with a cursor missing its last character', scope, cursor.slice(0, -1));
    },
  },
  {
    id: 'pagination.cursor.foreign-company',
    family: 'pagination',
    description: 'A cursor issued for company B, used with company A\'s scope, is refused with InvalidCursorError and returns no data of B.',
    async run(context) {
      await writeMany(context, context.otherCompanyScope(), 6);
      await writeMany(context, context.scope(), 6);
      const cursor = await firstCursor(context, context.otherCompanyScope());
      await expectCursorRefused(context, 'a list in company A with company B\'s cursor', context.scope(), cursor);
    },
  },
  {
    id: 'pagination.cursor.foreign-agent',
    family: 'pagination',
    description: 'A cursor issued for agent A, used with agent B\'s scope in the same company, is refused with InvalidCursorError.',
    async run(context) {
      const agentA = context.scope({ agentId: context.ids.agentId });
      const agentB = context.scope({ agentId: context.ids.otherAgentId });
      await writeMany(context, agentA, 6);
      await writeMany(context, agentB, 6);
      await expectCursorRefused(context, 'a list for agent B with agent A\'s cursor', agentB, await firstCursor(context, agentA));
    },
  },
  {
    id: 'pagination.cursor.stale-filter',
    family: 'pagination',
    description: 'A cursor issued for one metadataFilter, used with another filter or none, is refused with InvalidCursorError.',
    requires: whenDeclared('metadataFilter'),
    async run(context) {
      const scope = context.scope();
      await writeMany(context, scope, 6, { topic: 'alpha' });
      await writeMany(context, scope, 6, { topic: 'beta' });
      const cursor = await firstCursor(context, scope, { topic: 'alpha' });
      await expectCursorRefused(context, 'a list filtered on topic beta with a cursor of topic alpha', scope, cursor, { topic: 'beta' });
      await expectCursorRefused(context, 'an unfiltered list with a cursor of a filtered list', scope, cursor);
    },
  },
  {
    id: 'pagination.cursor.garbage',
    family: 'pagination',
    description: 'Strings that were never cursors are refused with InvalidCursorError.',
    async run(context) {
      const scope = context.scope();
      await writeMany(context, scope, 3);
      for (const garbage of ['not-a-cursor', 'c1.Zm9v.YmFy', 'eyJvZmZzZXQiOjJ9', '%%%', 'A'.repeat(120), '12']) {
        await expectRejection(`a list with the cursor ${JSON.stringify(garbage)}`, () => listPage(context, scope, 2, garbage), invalidCursor);
      }
    },
  },
];
