import { request } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryService, type MemoryService } from '@memplane/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMemplaneServer, type RunningMemplaneServer } from './start-memplane-server';

let folder: string;
let service: MemoryService;
let server: RunningMemplaneServer;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-inspector-'));
  await mkdir(join(folder, 'assets'));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>inspector</title><script type="module" src="./assets/app.js"></script>');
  await writeFile(join(folder, 'assets', 'app.js'), 'console.log("inspector");');
  await writeFile(join(folder, 'secret.txt'), 'not served');
  service = await createMemoryService();
  server = await startMemplaneServer({ service, verifyToken: async () => undefined, port: 0, inspectorDirectory: folder });
});
afterAll(async () => {
  await server.close();
  await service.close();
  await rm(folder, { recursive: true, force: true });
});

describe('without an inspector build', () => {
  it('answers / with 404 and a pointer to the API, and writes nothing to the console', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...values: unknown[]) => void errors.push(values);
    try {
      const bare = await startMemplaneServer({ service, verifyToken: async () => undefined, port: 0, inspectorDirectory: join(folder, 'missing') });
      const response = await fetch(`${bare.url}/`);
      expect(response.status).toBe(404);
      expect(await response.text()).toMatch(/not built/);
      expect((await fetch(`${bare.url}/assets/app.js`)).status).toBe(404);
      await bare.close();
    } finally {
      console.error = original;
    }
    expect(errors).toEqual([]);
  });
});

describe('the inspector files', () => {
  it('serves index.html at / with a strict content security policy, and its assets, without a token', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(await page.text()).toContain('<title>inspector</title>');
    const script = await fetch(`${server.url}/assets/app.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves nothing outside the build: other files, traversal and missing assets are 404', async () => {
    // Raw paths: fetch would resolve the dots before sending.
    for (const path of ['/secret.txt', '/assets/../secret.txt', '/assets/%2e%2e/secret.txt', '/assets/..%2fsecret.txt', '/assets/missing.js', '/index.html']) {
      const status = await new Promise<number>((resolveStatus, reject) => {
        const url = new URL(server.url);
        request({ host: url.hostname, port: url.port, path, method: 'GET' }, (response) => {
          response.resume();
          resolveStatus(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(`${path} ${status}`).toBe(`${path} 404`);
    }
  });
});
