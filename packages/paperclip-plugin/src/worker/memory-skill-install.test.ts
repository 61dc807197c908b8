import { createTestHarness } from '@paperclipai/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import manifest from '../manifest';
import { memorySkillKey } from '../manifest/memory-skill';
import { company } from './test-support/paperclip-fixtures';
import { installMemorySkill, installMemorySkillEverywhere } from './memory-skill-install';

describe('installing the managed memory skill', () => {
  it('installs the declared skill, with the plan rules, in every company, page after page', async () => {
    const harness = createTestHarness({ manifest });
    const ids = Array.from({ length: 205 }, (_, index) => `co-${index}`);
    harness.seed({ companies: ids.map(company) });
    expect((await installMemorySkillEverywhere(harness.ctx)).sort()).toEqual([...ids].sort());
    const installed = await harness.ctx.skills.managed.get(memorySkillKey, 'co-204');
    expect(installed.status).toBe('resolved');
    expect(installed.skill?.markdown).toContain('`memory_search`');
    // Reconciling again finds it and creates no second copy.
    expect((await harness.ctx.skills.managed.reconcile(memorySkillKey, 'co-204')).skillId).toBe(installed.skillId);
  });

  it('a host that refuses the skill or the company list is logged, never thrown', async () => {
    const withoutSkills = createTestHarness({ manifest, capabilities: manifest.capabilities.filter((c) => c !== 'skills.managed') });
    withoutSkills.seed({ companies: [company('acme')] });
    expect(await installMemorySkillEverywhere(withoutSkills.ctx)).toEqual([]);
    expect(withoutSkills.logs.some((log) => log.level === 'warn' && /memory skill could not be installed/.test(log.message))).toBe(true);
    const withoutCompanies = createTestHarness({ manifest, capabilities: manifest.capabilities.filter((c) => c !== 'companies.read') });
    expect(await installMemorySkillEverywhere(withoutCompanies.ctx)).toEqual([]);
    expect(await installMemorySkill(withoutSkills.ctx, 'acme')).toBe(false);
  });
});
