import type { MemoryService } from '@memplane/service';

const snapshotActor = { kind: 'system', component: 'snapshot' } as const;

/**
 * Everything the server could have written for a company: bindings, targets, activity, the
 * operation log (less the snapshot's own reads), hook deliveries, extraction jobs, finance
 * events and the records of its default binding. Two equal snapshots mean nothing was written.
 */
export async function companySnapshot(service: MemoryService, companyId: string): Promise<CompanySnapshot> {
  await service.whenIdle();
  const context = { actor: snapshotActor, companyId };
  const control = service.control(context);
  const explorer = service.explorer(context);
  const operations: Awaited<ReturnType<typeof explorer.listOperations>>['items'] = [];
  let cursor: string | undefined;
  do {
    const page = await explorer.listOperations({ limit: 200, ...(cursor === undefined ? {} : { cursor }) });
    operations.push(...page.items.filter((entry) => entry.actor.id !== 'snapshot'));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const bindings = await control.listBindings();
  let records: unknown = 'no binding';
  if (bindings.length > 0) {
    try {
      records = (await service.runtime(context).list({ limit: 200 })).items;
    } catch (error) {
      records = String(error);
    }
  }
  return {
    operations,
    state: {
      bindings,
      targets: await control.listTargets(),
      activity: (await control.listActivity({ limit: 200 })).items,
      deliveries: (await explorer.listHookDeliveries({ limit: 200 })).items,
      jobs: (await explorer.listExtractionJobs({ limit: 200 })).items,
      finance: (await service.costs(context).listFinanceEvents({ limit: 200 })).items,
      records,
    },
  };
}

/** What a company holds: its state, and its operation log apart (refusals are logged there by the service). */
export interface CompanySnapshot {
  /** Bindings, targets, activity, deliveries, jobs, finance events, records. */
  state: unknown;
  /** The operation log, newest first. */
  operations: Array<{ id: string; status: string; errorCode?: string }>;
}

/**
 * Whether nothing was written between two snapshots but refusals: the state is the same, and
 * every new log entry is a failed operation with one of `codes`, holding none of `secrets`
 * (text from the refused body).
 */
export function refusalsOnly(before: CompanySnapshot, after: CompanySnapshot, codes: string[], secrets: string[] = []): string | undefined {
  const [was, is] = [JSON.stringify(before.state), JSON.stringify(after.state)];
  if (was !== is) {
    let at = 0;
    while (at < was.length && was[at] === is[at]) at += 1;
    return `the state changed: ${was.slice(Math.max(0, at - 80), at + 80)} became ${is.slice(Math.max(0, at - 80), at + 80)}`;
  }
  const known = new Set(before.operations.map((entry) => entry.id));
  for (const entry of after.operations.filter((candidate) => !known.has(candidate.id))) {
    if (entry.status !== 'failed' || !codes.includes(entry.errorCode ?? '')) return `a new ${entry.status} operation ${entry.errorCode ?? ''}`;
    const text = JSON.stringify(entry);
    const leaked = secrets.find((secret) => text.includes(secret));
    if (leaked !== undefined) return `the log holds "${leaked}"`;
  }
  if (after.operations.length < before.operations.length) return 'operations disappeared';
  return undefined;
}
