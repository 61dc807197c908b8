#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform-specific optional packages that the
 * package registry reachable here does not serve (rollup's and turbo's binaries for other
 * systems). `npm install` leaves them out of the lock, and `npm ci` then refuses the lock as
 * out of sync. Each missing package gets an entry with the os, cpu and libc its name
 * encodes, so `npm ci` recognises it as meant for another platform and skips it.
 *
 * Run it after any `npm install` that changes the lock: `node scripts/complete-lockfile.mjs`.
 * It changes nothing when the lock is already complete, and exits 1 on a name it cannot read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const lockPath = join(import.meta.dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const cpus = { arm: 'arm', 'arm-eabi': 'arm', arm64: 'arm64', x64: 'x64', 64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' };
const systems = { windows: 'win32' };

/** Reads `{ os, cpu, libc }` from a platform package name such as `@rollup/rollup-linux-x64-musl` or `@turbo/windows-arm64`. */
function platformOf(name) {
  const tail = name.replace(/^@rollup\/rollup-/, '').replace(/^@turbo\//, '');
  const match = /^(android|darwin|freebsd|linux|openbsd|openharmony|win32|windows)-(arm-eabi|arm|arm64|x64|64|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnu|gnueabihf|musl|musleabihf|msvc))?$/.exec(tail);
  if (match === null) return undefined;
  const [, system, cpu, abi] = match;
  const platform = { os: [systems[system] ?? system], cpu: [cpus[cpu]] };
  if (abi === 'gnu' || abi === 'gnueabihf') platform.libc = ['glibc'];
  if (abi === 'musl' || abi === 'musleabihf') platform.libc = ['musl'];
  return platform;
}

let added = 0;
const unreadable = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (!name.startsWith('@rollup/rollup-') && !name.startsWith('@turbo/')) continue;
    const base = location === '' ? '' : `${location}/`;
    if (packages[`${base}node_modules/${name}`] !== undefined || packages[`node_modules/${name}`] !== undefined) continue;
    const platform = platformOf(name);
    if (platform === undefined) {
      unreadable.push(name);
      continue;
    }
    packages[`node_modules/${name}`] = { version: range.replace(/^[\^~]/, ''), ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}

if (unreadable.length > 0) {
  process.stderr.write(`complete-lockfile: cannot read the platform of ${unreadable.join(', ')}\n`);
  process.exit(1);
}
if (added > 0) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([left], [right]) => (left === '' ? -1 : right === '' ? 1 : left.localeCompare(right))));
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
process.stdout.write(`complete-lockfile: ${added} platform package entries added\n`);
