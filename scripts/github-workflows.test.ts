/**
 * The GitHub workflows do what CONTRIBUTING.md says: CI runs `.ci/run`, the very script every
 * submission is judged by, and the release workflow cuts releases through changesets with scripts
 * the root manifest defines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '..');

interface WorkflowStep {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: WorkflowStep[] }>;
}

const workflow = (name: string) => parse(readFileSync(join(root, '.github', 'workflows', name), 'utf8')) as Workflow;
const steps = (file: Workflow) => Object.values(file.jobs).flatMap((job) => job.steps);
const rootScripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the GitHub workflows', () => {
  it('CI runs .ci/run on pushes to main and on pull requests', () => {
    const ci = workflow('ci.yml');
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expect(steps(ci).some((step) => step.run?.trim() === 'bash .ci/run')).toBe(true);
    expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('the release workflow versions and publishes through changesets with scripts of the root manifest', () => {
    const release = workflow('release.yml');
    const changesets = steps(release).find((step) => step.uses?.startsWith('changesets/action@'));
    expect(changesets).toBeDefined();
    for (const command of [changesets?.with?.version, changesets?.with?.publish]) {
      const script = /^npm run ([\w-]+)$/.exec(command ?? '')?.[1];
      expect(script, `${command} is not an npm script`).toBeDefined();
      expect(rootScripts[script ?? '']).toBeDefined();
    }
    expect(rootScripts['version-packages']).toMatch(/^changeset version\b/);
    expect(rootScripts.release).toMatch(/changeset publish$/);
  });
});
