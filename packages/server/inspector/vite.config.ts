import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the inspector into `dist/inspector/` of the package, which the server serves at `/`
 * and `/assets/*`. Everything is bundled (React, uPlot, styles): the page loads nothing from
 * outside the server. `base: './'` keeps the asset URLs relative, so the page also works when a
 * proxy mounts the server under a path.
 */
export default defineConfig({
  root: here('.'),
  base: './',
  logLevel: 'warn',
  // The shipped page is always React's production build, whatever NODE_ENV the build runs under.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: here('../dist/inspector'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 600,
  },
});
