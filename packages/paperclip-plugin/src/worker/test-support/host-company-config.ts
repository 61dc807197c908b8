import type { TestHarness } from '@paperclipai/plugin-sdk/testing';

/** Each company's saved plugin config, by company id, as Paperclip stores it (one row per plugin and company). */
export type CompanyConfigs = Record<string, Record<string, unknown>>;

/** What Paperclip 2026.916.1 answers a `config.get` without a company (copied from the host's refusal). */
export const companylessConfigRefusal = 'Plugin is not allowed to perform "config.get": company context is required';

/** The harness's config, made honest about the host. */
export interface HostCompanyConfig {
  /** Every `config.get` the worker made, with the company it named (undefined: none). */
  reads: Array<string | undefined>;
  /** Saves a company's config and tells the worker, the way the host's config save does (`configChanged` with the company). */
  save(companyId: string, config: Record<string, unknown>): Promise<void>;
}

/**
 * Makes `harness.ctx.config.get` behave like the real host: the SDK harness ignores the company
 * and returns one config for all, but Paperclip keeps one config per plugin and company, answers
 * `{}` for a company that saved none, and refuses a read without a company. Every worker test
 * goes through this, so a company-less read fails in tests as it does in production.
 */
export function hostCompanyConfig(
  harness: TestHarness,
  configs: CompanyConfigs,
  onConfigChanged?: (config: Record<string, unknown>, change: { companyId: string | null }) => Promise<void> | void,
): HostCompanyConfig {
  const saved = new Map(Object.entries(configs));
  const reads: Array<string | undefined> = [];
  harness.ctx.config.get = async (companyId?: string) => {
    reads.push(companyId);
    if (typeof companyId !== 'string' || companyId.trim() === '') throw new Error(companylessConfigRefusal);
    return structuredClone(saved.get(companyId) ?? {});
  };
  return {
    reads,
    async save(companyId, config) {
      saved.set(companyId, structuredClone(config));
      await onConfigChanged?.(structuredClone(config), { companyId });
    },
  };
}
