import type { MemoryUsage } from '../memory-adapter/v1/memory-adapter-v1-usage';
import type { MemoryWarning } from '../memory-adapter/v1/memory-adapter-v1-warning';

/*
 * The usage and warnings around every result, checked by hand: a zod parse of them costs
 * more than the hand-written check of ten snippets. These accept exactly what
 * `memoryUsageSchema` and `memoryWarningSchema` accept and copy as zod does (unknown keys
 * dropped, `raw` and `details` values passed through); when one says no, the caller runs
 * zod for the error. A test holds each to agreement with its schema.
 */

const billingTypes: ReadonlySet<unknown> = new Set(['metered_api', 'subscription_included', 'subscription_overage', 'unknown']);
const attributionModes: ReadonlySet<unknown> = new Set(['billed_directly', 'included_in_run', 'external_invoice', 'untracked']);
const counterKeys = ['inputTokens', 'cachedInputTokens', 'outputTokens', 'embeddingTokens', 'costCents', 'latencyMs'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function isCounter(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
}

function copyValidUsage(value: unknown): MemoryUsage | undefined {
  if (!isRecord(value)) return undefined;
  const { provider, biller, model, billingType, attributionMode, details, raw } = value;
  if (typeof provider !== 'string' || provider.length === 0) return undefined;
  if (!optionalString(biller) || !optionalString(model)) return undefined;
  if (billingType !== undefined && !billingTypes.has(billingType)) return undefined;
  if (attributionMode !== undefined && !attributionModes.has(attributionMode)) return undefined;
  if (details !== undefined && !isRecord(details)) return undefined;
  const usage: MemoryUsage = { provider };
  if (biller !== undefined) usage.biller = biller as string;
  if (model !== undefined) usage.model = model as string;
  if (billingType !== undefined) usage.billingType = billingType as MemoryUsage['billingType'];
  if (attributionMode !== undefined) usage.attributionMode = attributionMode as MemoryUsage['attributionMode'];
  for (const key of counterKeys) {
    const counter = value[key];
    if (!isCounter(counter)) return undefined;
    if (counter !== undefined) usage[key] = counter as number;
  }
  if (details !== undefined) usage.details = { ...details };
  if (raw !== undefined) usage.raw = raw;
  return usage;
}

function copyValidWarning(value: unknown): MemoryWarning | undefined {
  if (!isRecord(value)) return undefined;
  const { type, details } = value;
  if (type === 'other') {
    const message = value.message;
    return typeof message === 'string' ? { type, message } : undefined;
  }
  if (!optionalString(details)) return undefined;
  const withDetails = details === undefined ? {} : { details: details as string };
  if (type === 'unsupported' || type === 'compatibility') {
    const feature = value.feature;
    return typeof feature === 'string' ? { type, feature, ...withDetails } : undefined;
  }
  if (type === 'scope_violation' || type === 'not_found') {
    const providerRecordId = value.providerRecordId;
    return typeof providerRecordId === 'string' ? { type, providerRecordId, ...withDetails } : undefined;
  }
  return undefined;
}

/** Checked copies of an optional list, or `false` when an entry is malformed. */
function copyList<Entry>(value: unknown, copy: (entry: unknown) => Entry | undefined): Entry[] | undefined | false {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return false;
  const copies: Entry[] = [];
  for (const entry of value) {
    const copied = copy(entry);
    if (copied === undefined) return false;
    copies.push(copied);
  }
  return copies;
}

/**
 * The usage and warnings of a result, checked and copied (each field read once), or undefined
 * when zod must say why not, a value that throws while it is read included.
 */
export function copyValidReport(value: Record<string, unknown>): { usage?: MemoryUsage[]; warnings?: MemoryWarning[] } | undefined {
  try {
    return copyReport(value);
  } catch {
    return undefined;
  }
}

function copyReport(value: Record<string, unknown>): { usage?: MemoryUsage[]; warnings?: MemoryWarning[] } | undefined {
  const usage = copyList(value.usage, copyValidUsage);
  const warnings = copyList(value.warnings, copyValidWarning);
  if (usage === false || warnings === false) return undefined;
  const report: { usage?: MemoryUsage[]; warnings?: MemoryWarning[] } = {};
  if (usage !== undefined) report.usage = usage;
  if (warnings !== undefined) report.warnings = warnings;
  return report;
}
