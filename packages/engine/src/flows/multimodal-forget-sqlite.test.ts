import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { createSqliteEngineStore } from '../store/sqlite/sqlite-engine-store';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { mediaModel, pngBytes } from '../testing/multimodal-fixtures';

const scope = { org: 'acme', project: 'apollo' };
const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Every file the store owns (the database, its WAL and shared memory), concatenated. */
function storeFiles(directory: string): Buffer {
  return Buffer.concat(readdirSync(directory).map((name) => readFileSync(join(directory, name))));
}

describe('a binary resource in a SQLite file', () => {
  it('its bytes are never written; forget removes the text derived from it from every file of the store', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'engine-media-'));
    directories.push(directory);
    const marker = 'RAWPIXELSx9Q';
    const image = pngBytes(marker);
    const caption = 'A whiteboard photo of the Zanzibar launch plan.';
    const ocr = 'Our goal is to reach the Zanzibar milestone by spring.';
    const path = join(directory, 'engine.db');
    const store = createSqliteEngineStore({ path });
    const engine = await createMemoryEngine({
      scope: orgProjectScope,
      store,
      profiles: { default: {}, vision: { model: mediaModel({ segments: [{ source: 'caption', text: caption }, { source: 'ocr', text: ocr }] }), mediaInputs: ['image'] } },
      roleProfiles: { preprocess: 'vision' },
      now: steppingClock(),
    });
    const memorized = await engine.memorize(scope, { type: 'resource', data: image, mimeType: 'image/png' });
    await engine.memorize(scope, { type: 'resource', content: 'We decided to ship on Fridays.' });
    const written = storeFiles(directory);
    expect(written.includes(Buffer.from(marker, 'latin1'))).toBe(false);
    expect(written.includes(Buffer.from(image).toString('base64').slice(8, 40))).toBe(false);
    expect(written.includes('Zanzibar milestone')).toBe(true);

    expect((await engine.forget(scope, memorized.itemIds)).length).toBe(memorized.itemIds.length);
    expect(await store.getResource(scope, memorized.resourceId)).toBeUndefined();
    await store.close();
    const left = storeFiles(directory);
    expect(left.includes('Zanzibar')).toBe(false);
    // Nor its analysed terms, which the full-text index keeps lower-cased and stemmed.
    expect(left.includes('zanzibar')).toBe(false);
    expect(left.includes('whiteboard')).toBe(false);
    expect(left.includes(Buffer.from(marker, 'latin1'))).toBe(false);
    expect(left.includes('Fridays')).toBe(true);
  });

  it('forget of a text resource leaves none of its text in the file either (deleted pages are zeroed)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'engine-text-'));
    directories.push(directory);
    const store = createSqliteEngineStore({ path: join(directory, 'engine.db') });
    const engine = await createMemoryEngine({ scope: orgProjectScope, store, now: steppingClock() });
    const memorized = await engine.memorize(scope, { type: 'resource', content: 'Our goal is to reach the Quetzalcoatl milestone by spring.' });
    await engine.forget(scope, memorized.itemIds);
    await store.close();
    const left = storeFiles(directory);
    expect(left.includes('Quetzalcoatl')).toBe(false);
    expect(left.includes('quetzalcoatl')).toBe(false);
  });
});
