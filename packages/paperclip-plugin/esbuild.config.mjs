// Builds what Paperclip loads, with the plugin SDK's own bundler presets:
// dist/manifest.js, dist/worker.js (node, ESM) and dist/ui/index.js (browser, React from the host).
// Runs after tsup (which cleans dist/ and writes the library entry).
import { readFileSync } from 'node:fs';
import { createPluginBundlerPresets } from '@paperclipai/plugin-sdk/bundlers';
import * as esbuild from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const presets = createPluginBundlerPresets({
  workerEntry: 'src/worker.ts',
  manifestEntry: 'src/manifest.ts',
  uiEntry: 'src/ui/index.tsx',
  outdir: 'dist',
});

// The worker and the manifest run from the installed package, so its dependencies (the service,
// the SDK, better-sqlite3 loaded on demand, hosted adapters) resolve from node_modules, never
// from a copy frozen into the bundle.
const nodeBundle = { packages: 'external', define: { __PACKAGE_VERSION__: JSON.stringify(version) }, logLevel: 'warning' };
const ui = presets.esbuild.ui;
if (ui === undefined) throw new TypeError('the SDK presets built no UI bundle config');

await Promise.all([
  esbuild.build({ ...presets.esbuild.worker, ...nodeBundle }),
  esbuild.build({ ...presets.esbuild.manifest, ...nodeBundle }),
  esbuild.build({ ...ui, jsx: 'automatic', logLevel: 'warning' }),
]);
