import type { MemoryUsage } from '@memplane/core';
import { expectTrue, preview } from '../assertions';
import { allOf, whenDeclared, type ConformanceRule, type RuleNeed } from '../conformance-rule';
import { captureFailedJob, captureWithJob } from '../fixtures/extraction-fixtures';
import { markedText, type RuleContext } from '../rule-context';

const counters = ['inputTokens', 'cachedInputTokens', 'outputTokens', 'embeddingTokens', 'costCents'] as const;
const billingTypes = ['metered_api', 'subscription_included', 'subscription_overage', 'unknown'];
const attributionModes = ['billed_directly', 'included_in_run', 'external_invoice', 'untracked'];

/** Fails unless `usage` is a non-empty list of honest entries from this adapter. */
export function expectHonestUsage(usage: MemoryUsage[] | undefined, adapterKey: string, operation: string): void {
  expectTrue(Array.isArray(usage) && usage.length > 0, `Expected the ${operation} result to report usage entries, but it reported ${preview(usage)}.`);
  usage.forEach((entry, index) => {
    const where = `usage[${index}] of ${operation}`;
    expectTrue(typeof entry.provider === 'string' && entry.provider !== '', `Expected ${where} to name its provider, but provider was ${preview(entry.provider)}.`);
    expectTrue(entry.provider === adapterKey, `Expected ${where}.provider to be the adapter key ${preview(adapterKey)}, but it was ${preview(entry.provider)}.`);
    expectTrue(
      typeof entry.latencyMs === 'number' && Number.isFinite(entry.latencyMs) && entry.latencyMs >= 0,
      `Expected ${where} to carry a measured latencyMs >= 0, but it was ${preview(entry.latencyMs)}.`,
    );
    for (const counter of counters) {
      const value = entry[counter];
      if (value === undefined) continue;
      expectTrue(typeof value === 'number' && Number.isFinite(value) && value >= 0, `Expected ${where}.${counter} to be a finite non-negative number, but it was ${preview(value)}.`);
      expectTrue(entry.raw !== undefined, `Expected ${where} to carry raw (the provider payload ${counter} was read from), but ${counter} is ${value} without raw: counters the provider did not report must stay undefined.`);
    }
    if (entry.billingType !== undefined) {
      expectTrue(billingTypes.includes(entry.billingType), `Expected ${where}.billingType to be one of ${billingTypes.join(', ')}, but it was ${preview(entry.billingType)}.`);
    }
    if (entry.attributionMode !== undefined) {
      expectTrue(attributionModes.includes(entry.attributionMode), `Expected ${where}.attributionMode to be one of ${attributionModes.join(', ')}, but it was ${preview(entry.attributionMode)}.`);
    }
  });
}

interface UsageCase {
  operation: string;
  requires?: ConformanceRule['requires'];
  needs?: RuleNeed[];
  perform(context: RuleContext): Promise<{ usage?: MemoryUsage[] }>;
}

async function writeOne(context: RuleContext) {
  const scope = context.scope();
  const marker = context.marker('usage');
  return { scope, marker, handle: await context.writeMarkedRecord(scope, marker) };
}

const usageCases: UsageCase[] = [
  {
    operation: 'capture',
    perform: (context) => context.adapter.capture({ bindingKey: context.bindingKey, scope: context.scope(), source: context.source(context.scope()), payload: { text: markedText(context.marker()) } }),
  },
  {
    operation: 'upsertRecords',
    perform: (context) => context.adapter.upsertRecords({ bindingKey: context.bindingKey, scope: context.scope(), records: [{ text: markedText(context.marker()) }] }),
  },
  {
    operation: 'query',
    async perform(context) {
      const { scope, marker } = await writeOne(context);
      return context.adapter.query({ bindingKey: context.bindingKey, scope, query: marker });
    },
  },
  {
    operation: 'list',
    async perform(context) {
      const { scope } = await writeOne(context);
      return context.adapter.list({ bindingKey: context.bindingKey, scope });
    },
  },
  {
    operation: 'forget',
    async perform(context) {
      const { scope, handle } = await writeOne(context);
      return context.adapter.forget([handle], scope);
    },
  },
  {
    operation: 'correct',
    requires: whenDeclared('correction'),
    async perform(context) {
      const { scope, handle } = await writeOne(context);
      return context.adapter.correct(handle, { text: markedText(context.marker('corrected')) }, scope);
    },
  },
  {
    operation: 'profile',
    requires: whenDeclared('profile'),
    async perform(context) {
      const { scope } = await writeOne(context);
      return context.adapter.profile(scope);
    },
  },
  {
    operation: 'getExtractionJob',
    requires: whenDeclared('asyncExtraction'),
    async perform(context) {
      const job = await captureWithJob(context, context.scope(), context.marker());
      return context.adapter.getExtractionJob(job.providerJobId, context.scope());
    },
  },
  {
    operation: 'listExtractionJobs',
    requires: allOf(whenDeclared('asyncExtraction'), whenDeclared('listExtractionJobs')),
    async perform(context) {
      await captureWithJob(context, context.scope(), context.marker());
      return context.adapter.listExtractionJobs(context.scope());
    },
  },
  {
    operation: 'retryExtractionJob',
    requires: allOf(whenDeclared('asyncExtraction'), whenDeclared('retryExtractionJob')),
    needs: ['faults'],
    async perform(context) {
      const failed = await captureFailedJob(context, context.scope(), context.marker());
      return context.adapter.retryExtractionJob(failed.providerJobId, context.scope());
    },
  },
  {
    operation: 'explain',
    requires: whenDeclared('explain'),
    async perform(context) {
      const { scope, marker } = await writeOne(context);
      return context.adapter.explain(await context.adapter.query({ bindingKey: context.bindingKey, scope, query: marker }), scope);
    },
  },
];

/** The `usage` family: every result reports honest usage, with no invented counters. */
export const usageRules: ConformanceRule[] = usageCases.map((usageCase) => ({
  id: `usage.${usageCase.operation}`,
  family: 'usage',
  description: `${usageCase.operation} reports usage: provider = adapter key, measured latencyMs >= 0, counters only with raw, valid billing enums.`,
  ...(usageCase.requires === undefined ? {} : { requires: usageCase.requires }),
  ...(usageCase.needs === undefined ? {} : { needs: usageCase.needs }),
  async run(context) {
    const result = await usageCase.perform(context);
    expectHonestUsage(result.usage, context.adapter.key, usageCase.operation);
  },
}));
