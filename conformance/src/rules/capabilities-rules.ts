import { memoryAdapterCapabilitiesSchema, type MemoryAdapterCapabilities } from '@memplane/core';
import { expectDeepEqual, expectEqual, expectTrue, preview } from '../assertions';
import type { ConformanceRule } from '../conformance-rule';
import { markedText } from '../rule-context';
import { capabilitySurfaceRules } from './capabilities-surface-rules';
import { metadataFilterRules } from './capabilities-metadata-filter-rules';

/** The `capabilities` family: the manifest itself, every optional surface on and off, and metadataFilter. */
export const capabilitiesRules: ConformanceRule[] = [
  {
    id: 'capabilities.manifest',
    family: 'capabilities',
    description: 'The capability manifest validates against memoryAdapterCapabilitiesSchema and survives a JSON round trip unchanged.',
    async run(context) {
      const capabilities: MemoryAdapterCapabilities = context.adapter.capabilities;
      const parsed = memoryAdapterCapabilitiesSchema.safeParse(capabilities);
      expectTrue(parsed.success, `Expected the capability manifest to validate, but it has ${preview(parsed.error?.issues)}.`);
      expectDeepEqual(JSON.parse(JSON.stringify(capabilities)) as unknown, { ...capabilities }, 'the capability manifest after JSON.stringify and JSON.parse');
    },
  },
  {
    id: 'capabilities.specification-version',
    family: 'capabilities',
    description: 'specificationVersion is "v1".',
    async run(context) {
      expectEqual(context.adapter.specificationVersion, 'v1', 'adapter.specificationVersion');
    },
  },
  {
    id: 'capabilities.key',
    family: 'capabilities',
    description: 'The adapter key is a non-empty string, and every handle the adapter issues (upsert, capture, list) carries it.',
    async run(context) {
      const key = context.adapter.key;
      expectTrue(typeof key === 'string' && key.trim() !== '', `Expected adapter.key to be a non-empty string, but it was ${preview(key)}.`);
      const scope = context.scope();
      const written = await context.writeRecords(scope, [markedText(context.marker('key'))]);
      const { result } = await context.captureAndSettle({ scope, source: context.source(scope), payload: { text: markedText(context.marker('capture')) }, mode: 'capture_record' });
      const listed = (await context.listAll(scope)).map((item) => item.handle);
      for (const handle of [...written, ...(result.records ?? []), ...listed]) {
        expectEqual(handle.providerKey, key, `the providerKey of handle ${handle.providerRecordId}`);
      }
    },
  },
  ...capabilitySurfaceRules,
  ...metadataFilterRules,
];
