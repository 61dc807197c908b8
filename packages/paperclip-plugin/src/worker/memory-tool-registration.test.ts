import { afterEach, describe, expect, it } from 'vitest';
import manifest from '../manifest';
import { startWorker, type StartedWorker } from './test-support/worker-harness';

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

describe('the tools the worker registers', () => {
  it('are the manifest declarations, word for word: the model never sees a dotted internal name', async () => {
    const registered: Array<{ name: string; declaration: unknown }> = [];
    worker = await startWorker({}, {}, (harness) => {
      const register = harness.ctx.tools.register.bind(harness.ctx.tools);
      harness.ctx.tools.register = (name, declaration, fn) => {
        registered.push({ name, declaration });
        register(name, declaration, fn);
      };
    });
    expect(registered).toEqual(
      (manifest.tools ?? []).map(({ name, ...declaration }) => ({ name, declaration })),
    );
    expect(JSON.stringify(registered)).not.toMatch(/memory\.(search|note|forget|correct|list|get)\b/);
  });
});
