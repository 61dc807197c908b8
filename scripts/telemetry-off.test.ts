/**
 * Nothing phones home: every npm script of the repository, of each workspace and of the adapter
 * templates that runs a tool known to send telemetry turns it off itself, so no user has to. The
 * workflows the scaffolder writes run no such tool, so they carry no opt-out variable either.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..');

/** The templates the scaffolder copies: the full one (a workspace) and the minimal one (inside the scaffolder). */
const templateFolders = ['adapters/_template', 'packages/create-memplane-adapter/template-minimal'];

/** Tools that send telemetry unless told not to, and the variable that tells them. */
const telemetryTools: Record<string, string> = {
  turbo: 'TURBO_TELEMETRY_DISABLED=1',
  next: 'NEXT_TELEMETRY_DISABLED=1',
  astro: 'ASTRO_TELEMETRY_DISABLED=1',
  nuxt: 'NUXT_TELEMETRY_DISABLED=1',
  nuxi: 'NUXT_TELEMETRY_DISABLED=1',
  gatsby: 'GATSBY_TELEMETRY_DISABLED=1',
  storybook: 'STORYBOOK_DISABLE_TELEMETRY=1',
};

function manifestsWithScripts(): Array<{ file: string; scripts: Record<string, string> }> {
  const folders = ['.', 'conformance', ...templateFolders, ...['internal', 'packages', 'adapters', 'examples'].flatMap((parent) =>
    readdirSync(join(root, parent)).map((child) => join(parent, child)),
  )];
  return folders
    .map((folder) => join(folder, 'package.json'))
    .filter((file) => existsSync(join(root, file)))
    .map((file) => {
      const manifest = JSON.parse(readFileSync(join(root, file), 'utf8')) as { scripts?: Record<string, string> };
      return { file, scripts: manifest.scripts ?? {} };
    });
}

/**
 * Each shell command of a script (split on `&&`, `||`, `;` and `|`) that runs a telemetry tool
 * and does not set the tool's opt-out variable right before it.
 */
export function commandsThatPhoneHome(script: string): string[] {
  return script
    .split(/&&|\|\||;|\|/)
    .map((command) => command.trim())
    .filter((command) => {
      const words = command.split(/\s+/);
      const assignments = words.filter((word) => /^[A-Z_][A-Z0-9_]*=/.test(word));
      const program = words.find((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word) && word !== 'npx' && word !== 'cross-env');
      const optOut = program === undefined ? undefined : telemetryTools[program];
      return optOut !== undefined && !assignments.includes(optOut);
    });
}

describe('telemetry', () => {
  it('finds a bare turbo call and accepts one with its opt-out variable', () => {
    expect(commandsThatPhoneHome('turbo run build && tsx demo.ts')).toEqual(['turbo run build']);
    expect(commandsThatPhoneHome('npx next build')).toEqual(['npx next build']);
    expect(commandsThatPhoneHome('TURBO_TELEMETRY_DISABLED=1 turbo run build && vitest run')).toEqual([]);
    expect(commandsThatPhoneHome('TURBO_TELEMETRY_DISABLED=1 turbo run build; turbo run test')).toEqual(['turbo run test']);
  });

  it('every script of the repository, its workspaces and the adapter template runs with telemetry off', () => {
    const offenders = manifestsWithScripts().flatMap(({ file, scripts }) =>
      Object.entries(scripts).flatMap(([name, script]) =>
        commandsThatPhoneHome(script).map((command) => `${file} "${name}": ${command}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('the workflows the scaffolder writes run no telemetry tool, so they carry no opt-out variable', () => {
    for (const folder of templateFolders) {
      const file = join(folder, '.github', 'workflows', 'conformance.yml');
      const text = readFileSync(join(root, file), 'utf8');
      const workflow = parse(text) as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
      const commands = Object.values(workflow.jobs)
        .flatMap((job) => job.steps)
        .flatMap((step) => step.run?.split('\n') ?? []);
      expect(commands.length, file).toBeGreaterThan(0);
      // Its npm scripts are the template's own, checked above; its commands call no tool directly.
      const tools = commands.flatMap((command) =>
        command
          .split(/&&|\|\||;|\|/)
          .map((part) => part.trim().split(/\s+/).find((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word) && word !== 'npx'))
          .filter((program) => program !== undefined && program in telemetryTools),
      );
      expect(tools, file).toEqual([]);
      // An opt-out for a tool the workflow never runs is a leftover of the monorepo (it ran turbo).
      const leftovers = Object.values(telemetryTools)
        .map((optOut) => optOut.split('=')[0] ?? optOut)
        .filter((variable) => text.includes(variable));
      expect(leftovers, file).toEqual([]);
    }
  });

  it('the demo script runs turbo without its telemetry notice, for a user who never configured turbo', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const turboCommand = manifest.scripts.demo?.split('&&')[0]?.trim();
    expect(turboCommand).toMatch(/turbo run build/);
    // A home turbo has never seen: turbo prints its notice (and starts collecting) on first use.
    const home = mkdtempSync(join(tmpdir(), 'memplane-turbo-home-'));
    try {
      const environment: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
      delete environment.TURBO_TELEMETRY_DISABLED;
      delete environment.DO_NOT_TRACK;
      const run = spawnSync('sh', ['-c', `${turboCommand} --dry=json`], { cwd: root, env: environment, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/collects .*telemetry/i);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
