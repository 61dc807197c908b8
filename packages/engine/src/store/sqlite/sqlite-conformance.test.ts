import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMemoryAdapterConformance } from '@memplane/conformance';
import { afterAll } from 'vitest';
import { createEngineAdapter } from '../../adapter/engine-adapter';
import type { EngineStore } from '../engine-store';
import { createSqliteEngineStore } from './sqlite-engine-store';

const folder = mkdtempSync(join(tmpdir(), 'memplane-engine-sqlite-conformance-'));
const stores: EngineStore[] = [];
let files = 0;
let latest = '';
afterAll(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  rmSync(folder, { recursive: true, force: true });
});

/** An engine adapter on a SQLite file; the peer opens a second store on the same file, as another process would. */
async function adapterOn(path: string) {
  const store = createSqliteEngineStore({ path });
  stores.push(store);
  return createEngineAdapter({ store, cursorSecret: 'conformance-secret' });
}

describeMemoryAdapterConformance({
  name: '@memplane/engine on SQLite',
  createAdapter: () => {
    files += 1;
    latest = join(folder, `engine-${files}.db`);
    return adapterOn(latest);
  },
  createPeerAdapter: () => adapterOn(latest),
});
