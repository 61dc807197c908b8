import { afterAll, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { createPostgresEngineStore } from '../store/postgres/postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../store/postgres/test-support/postgres-test-support';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { mediaModel, twoPagePdf } from '../testing/multimodal-fixtures';

const scope = { org: 'acme', project: 'apollo' };

describeWithPostgres('multimodal resources on PostgreSQL', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it('a PDF kept unprocessed, then processed in place of that row, cited by page, then forgotten', async () => {
    const schema = uniqueSchemaName('media');
    schemas.push(schema);
    const store = createPostgresEngineStore({ connectionString: url, schema, maxConnections: 2 });
    try {
      const pdf = { type: 'resource' as const, data: twoPagePdf(), mimeType: 'application/pdf', metadata: { folder: 'plans' } };
      const bare = await createMemoryEngine({ scope: orgProjectScope, store, now: steppingClock() });
      const kept = await bare.memorize(scope, pdf);
      expect(kept.warnings.map((warning) => warning.reason)).toEqual(['no_model']);

      const reader = await createMemoryEngine({
        scope: orgProjectScope,
        store,
        profiles: { default: {}, reader: { model: mediaModel({ segments: [{ source: 'page', page: 1, text: 'Plan.' }, { source: 'page', page: 2, text: 'We decided to launch in Lisbon.' }] }), mediaInputs: ['pdf'] } },
        roleProfiles: { preprocess: 'reader' },
        now: steppingClock('2026-02-01T00:00:00.000Z'),
      });
      const processed = await reader.memorize(scope, pdf);
      expect(await store.getResource(scope, kept.resourceId)).toBeUndefined();
      const resource = await store.getResource(scope, processed.resourceId);
      expect(resource).toMatchObject({ modality: 'document', mimeType: 'application/pdf', metadata: { folder: 'plans', 'memplane:media': { status: 'processed', kind: 'pdf', segments: 2 } } });
      const decision = [...(await reader.getItems(scope, processed.itemIds)).values()].find((item) => item.kind === 'decision');
      expect(decision?.evidence[0]).toMatchObject({ page: 2, media: { source: 'page' } });
      expect(await reader.memorize(scope, pdf)).toMatchObject({ duplicate: true, resourceId: processed.resourceId });

      await reader.forget(scope, processed.itemIds);
      expect(await store.getResource(scope, processed.resourceId)).toBeUndefined();
      expect(await store.getSegments(scope, processed.resourceId)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
