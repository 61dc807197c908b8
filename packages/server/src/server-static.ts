import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';

/** Where this module lives; the CommonJS build gets `import.meta.url` from tsup's shims. */
function hereDirectory(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/** The inspector built into the package: `dist/inspector` beside the built code, or of the package when run from source. */
export function defaultInspectorDirectory(): string {
  const here = hereDirectory();
  const beside = join(here, 'inspector');
  return existsSync(join(beside, 'index.html')) ? beside : resolve(here, '../dist/inspector');
}

/**
 * Serves the prebuilt inspector: `index.html` at `/`, its files at `/assets/*`. The page holds
 * no data; it calls the API with the token the user signs in with. A missing build answers 404.
 */
export function serveInspector<App extends Hono>(app: App, directory: string = defaultInspectorDirectory()): void {
  const root = resolve(directory);
  // Without a build there is nothing to serve, and the file server would complain on the console.
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/', (c) => c.text('The inspector is not built into this installation; the API is under /v1 (see /openapi.json).', 404));
    return;
  }
  const headers = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };
  app.use('/assets/*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
  app.get('/assets/*', serveStatic({ root }));
  app.get('/', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    c.res.headers.set('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
  }, serveStatic({ root, path: 'index.html' }));
}
