// prepack: copies adapters/_template into template/ so the published package carries it.
// Build output, installs and local secrets stay behind; the scaffolder skips them anyway.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = resolve(packageRoot, '..', '..', 'adapters', '_template');
const target = join(packageRoot, 'template');
const skipped = new Set(['node_modules', 'dist', '.turbo', '.tmp', 'coverage', '.env']);

if (!existsSync(join(source, 'package.json'))) {
  process.stderr.write(`bundle-template: no adapter template at ${source}\n`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, {
  recursive: true,
  filter: (path) => !skipped.has(basename(path)) && !path.endsWith('.tsbuildinfo'),
});
process.stdout.write(`bundle-template: copied ${source} to ${target}\n`);
