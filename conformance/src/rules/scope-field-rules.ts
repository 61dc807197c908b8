import type { MemoryScopeField } from '@memplane/core';
import { expectMarkerAbsent, expectMarkerFound } from '../assertions';
import type { ConformanceRule } from '../conformance-rule';

/** The scope fields below `companyId` whose values must partition records. */
export const isolatedScopeFields = [
  'agentId',
  'projectId',
  'issueId',
  'runId',
  'subjectId',
  'sessionKey',
  'namespace',
] as const satisfies ReadonlyArray<Exclude<MemoryScopeField, 'companyId'>>;

type IsolatedField = (typeof isolatedScopeFields)[number];

function queryIsolationRule(field: IsolatedField): ConformanceRule {
  return {
    id: `scope.isolation.${field}.query`,
    family: 'scope',
    description: `query with ${field} B never returns a record written under ${field} A of the same company.`,
    async run(context) {
      const valueA = context.uniqueValue(`${field}-a`);
      const valueB = context.uniqueValue(`${field}-b`);
      const marker = context.marker(field);
      await context.writeMarkedRecord(context.scope({ [field]: valueA }), marker);
      const underB = await context.queryByMarker(context.scope({ [field]: valueB }), marker);
      expectMarkerAbsent(underB.all, marker, `query with ${field}=${valueB}`);
      const underA = await context.queryByMarker(context.scope({ [field]: valueA }), marker);
      expectMarkerFound(underA.all, marker, `query with ${field}=${valueA} (the record's own value)`);
    },
  };
}

function listIsolationRule(field: IsolatedField): ConformanceRule {
  return {
    id: `scope.isolation.${field}.list`,
    family: 'scope',
    description: `list with ${field} B never returns a record written under ${field} A of the same company.`,
    async run(context) {
      const valueA = context.uniqueValue(`${field}-a`);
      const valueB = context.uniqueValue(`${field}-b`);
      const marker = context.marker(field);
      await context.writeMarkedRecord(context.scope({ [field]: valueA }), marker);
      expectMarkerAbsent(await context.listAll(context.scope({ [field]: valueB })), marker, `list with ${field}=${valueB}`);
      expectMarkerFound(
        await context.listAll(context.scope({ [field]: valueA })),
        marker,
        `list with ${field}=${valueA} (the record's own value)`,
      );
    },
  };
}

/** Isolation of every scope field below the company, on query and on list. */
export const scopeFieldRules: ConformanceRule[] = isolatedScopeFields.flatMap((field) => [
  queryIsolationRule(field),
  listIsolationRule(field),
]);

/** Unset request fields do not constrain; a set field constrains only itself. */
export const scopeMatchingRules: ConformanceRule[] = [
  {
    id: 'scope.unset-fields.list',
    family: 'scope',
    description:
      'A company-wide list sees the records of every agent, project and namespace of the company; a list with an agentId sees only that agent\'s records.',
    async run(context) {
      const [first, second, third] = [context.marker('first'), context.marker('second'), context.marker('third')];
      await context.writeMarkedRecord(context.scope({ agentId: context.ids.agentId, projectId: context.uniqueValue('project') }), first);
      await context.writeMarkedRecord(context.scope({ agentId: context.ids.otherAgentId, namespace: context.uniqueValue('namespace') }), second);
      await context.writeMarkedRecord(context.scope(), third);
      const companyWide = await context.listAll(context.scope());
      for (const marker of [first, second, third]) expectMarkerFound(companyWide, marker, 'a list with only companyId');
      const agentOnly = await context.listAll(context.scope({ agentId: context.ids.agentId }));
      expectMarkerFound(agentOnly, first, 'a list with agentId A (the record also has a projectId the request leaves unset)');
      expectMarkerAbsent(agentOnly, second, 'a list with agentId A (the record belongs to agent B)');
      expectMarkerAbsent(agentOnly, third, 'a list with agentId A (the record has no agentId)');
    },
  },
  {
    id: 'scope.unset-fields.query',
    family: 'scope',
    description: 'A company-wide query finds the records of every agent and project of the company.',
    async run(context) {
      const [first, second] = [context.marker('first'), context.marker('second')];
      await context.writeMarkedRecord(context.scope({ agentId: context.ids.agentId, projectId: context.uniqueValue('project') }), first);
      await context.writeMarkedRecord(context.scope({ agentId: context.ids.otherAgentId, sessionKey: context.uniqueValue('session') }), second);
      for (const marker of [first, second]) {
        expectMarkerFound((await context.queryByMarker(context.scope(), marker)).all, marker, 'a query with only companyId');
      }
    },
  },
];
