import type { MemoryWarning } from '@memplane/core';
import { expectMarkerAbsent, expectMarkerFound, expectTrue, preview } from '../assertions';
import { whenDeclared, whenNotDeclared, type ConformanceRule } from '../conformance-rule';

function hasFilterWarning(warnings: MemoryWarning[] | undefined): boolean {
  return (warnings ?? []).some((warning) => warning.type === 'unsupported' && warning.feature === 'metadataFilter');
}

/** metadataFilter: applied when declared, reported as an `unsupported` warning when not. */
export const metadataFilterRules: ConformanceRule[] = [
  {
    id: 'capabilities.metadataFilter.declared-off',
    family: 'capabilities',
    description: 'With capabilities.metadataFilter off, query and list with a metadataFilter return an `unsupported` warning for metadataFilter.',
    requires: whenNotDeclared('metadataFilter'),
    async run(context) {
      const scope = context.scope();
      const marker = context.marker('filter');
      await context.writeMarkedRecord(scope, marker, { metadata: { topic: 'alpha' } });
      const metadataFilter = { topic: 'alpha' };
      const bundle = await context.adapter.query({ bindingKey: context.bindingKey, scope, query: marker, metadataFilter });
      expectTrue(hasFilterWarning(bundle.warnings), `Expected query to warn that metadataFilter is unsupported, but its warnings were ${preview(bundle.warnings)}.`);
      const page = await context.adapter.list({ bindingKey: context.bindingKey, scope, metadataFilter });
      expectTrue(hasFilterWarning(page.warnings), `Expected list to warn that metadataFilter is unsupported, but its warnings were ${preview(page.warnings)}.`);
    },
  },
  {
    id: 'capabilities.metadataFilter.declared-on',
    family: 'capabilities',
    description: 'With capabilities.metadataFilter on, query and list return exactly the records whose metadata has the filter\'s top-level values (deep equality, all keys).',
    requires: whenDeclared('metadataFilter'),
    async run(context) {
      const scope = context.scope();
      const [alphaTwo, alphaThree, betaTwo, tagged, moreTags] = ['alphatwo', 'alphathree', 'betatwo', 'tagged', 'moretags'].map((label) => context.marker(label)) as [string, string, string, string, string];
      await context.writeMarkedRecord(scope, alphaTwo, { metadata: { topic: 'alpha', priority: 2, tags: ['x', 'y'] } });
      await context.writeMarkedRecord(scope, alphaThree, { metadata: { topic: 'alpha', priority: 3, tags: ['x'] } });
      await context.writeMarkedRecord(scope, betaTwo, { metadata: { topic: 'beta', priority: 2 } });
      await context.writeMarkedRecord(scope, tagged, { metadata: { tags: ['x', 'y'] } });
      await context.writeMarkedRecord(scope, moreTags, { metadata: { tags: ['x', 'y', 'z'] } });

      const both = await context.listAll(scope, { metadataFilter: { topic: 'alpha', priority: 2 } });
      expectMarkerFound(both, alphaTwo, 'a list filtered on topic alpha and priority 2');
      for (const other of [alphaThree, betaTwo, tagged, moreTags]) expectMarkerAbsent(both, other, 'a list filtered on topic alpha and priority 2');

      const byArray = await context.listAll(scope, { metadataFilter: { tags: ['x', 'y'] } });
      for (const match of [alphaTwo, tagged]) expectMarkerFound(byArray, match, 'a list filtered on tags ["x","y"]');
      for (const other of [alphaThree, betaTwo, moreTags]) expectMarkerAbsent(byArray, other, 'a list filtered on tags ["x","y"] (deep equality)');

      const bundle = await context.adapter.query({ bindingKey: context.bindingKey, scope, query: 'release checklist', topK: 50, metadataFilter: { topic: 'alpha' } });
      for (const match of [alphaTwo, alphaThree]) expectMarkerFound(bundle.snippets, match, 'a query filtered on topic alpha');
      for (const other of [betaTwo, tagged, moreTags]) expectMarkerAbsent(bundle.snippets, other, 'a query filtered on topic alpha');
      expectTrue(!hasFilterWarning(bundle.warnings), 'Expected no `unsupported` metadataFilter warning from an adapter that declares metadataFilter.');
    },
  },
];
