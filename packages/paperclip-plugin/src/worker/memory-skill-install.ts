import type { PluginContext } from '@paperclipai/plugin-sdk';
import { memorySkillKey } from '../manifest/memory-skill';

type SkillHost = Pick<PluginContext, 'companies' | 'skills' | 'logger'>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'unknown error');
const pageSize = 100;

/**
 * Installs (or relinks) the managed memory skill in one company. Paperclip installs a plugin's
 * declared skills only when the plugin reconciles them; a failure is logged, never thrown, so a
 * company the host refuses never stops the others or the worker.
 */
export async function installMemorySkill(ctx: SkillHost, companyId: string): Promise<boolean> {
  try {
    const resolution = await ctx.skills.managed.reconcile(memorySkillKey, companyId);
    return resolution.skillId !== null;
  } catch (error) {
    ctx.logger.warn('memplane: the memory skill could not be installed', { companyId, error: messageOf(error) });
    return false;
  }
}

/** Installs the memory skill in every company of the instance, page by page; returns the companies it is installed in. */
export async function installMemorySkillEverywhere(ctx: SkillHost): Promise<string[]> {
  const installed: string[] = [];
  for (let offset = 0; ; offset += pageSize) {
    let companies: Array<{ id: string }>;
    try {
      companies = (await ctx.companies.list({ limit: pageSize, offset })) ?? [];
    } catch (error) {
      ctx.logger.warn('memplane: companies could not be listed to install the memory skill', { error: messageOf(error) });
      return installed;
    }
    for (const company of companies) if (await installMemorySkill(ctx, company.id)) installed.push(company.id);
    if (companies.length < pageSize) return installed;
  }
}
