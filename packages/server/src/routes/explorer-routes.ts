import { identifierSchema, MemoryNotFoundError } from '@memplane/core';
import { serviceRequestSchemas } from '@memplane/service';
import { z } from 'zod';
import { ok, pageSchema, type ServerRoute } from '../server-route';

const base = '/v1/companies/:companyId/explorer';
const explorer = serviceRequestSchemas.explorer;
const costs = serviceRequestSchemas.costs;
const page = (description: string) => ({ status: 200 as const, description, schema: pageSchema });

/** The explorer endpoints: the operation log with every filter, counts, metrics, hook deliveries, extraction jobs, costs and finance events. */
export const explorerRoutes: ServerRoute[] = [
  {
    method: 'get',
    path: `${base}/operations`,
    tag: 'explorer',
    operationId: 'explorer.listOperations',
    summary: 'The operation log, newest first, filtered by agent, issue, project, run, source kind, operation, status, binding and date range, by cursor.',
    query: explorer.listOperations,
    success: page('A page of operations.'),
    handle: async ({ service, context, query }) => ok(await service.explorer(context).listOperations(query as never)),
  },
  {
    method: 'get',
    path: `${base}/operations/:operationId`,
    tag: 'explorer',
    operationId: 'explorer.getOperation',
    summary: 'One operation: scope, source, usage, latency and error.',
    params: z.object({ operationId: identifierSchema }),
    success: { status: 200, description: 'The operation.' },
    async handle({ service, context, params }) {
      const operationId = params.operationId ?? '';
      const entry = await service.explorer(context).getOperation(operationId);
      if (entry === undefined) throw new MemoryNotFoundError({ resourceId: operationId, message: `No operation "${operationId}" in this company.` });
      return ok(entry);
    },
  },
  {
    method: 'get',
    path: `${base}/operation-counts`,
    tag: 'explorer',
    operationId: 'explorer.countOperations',
    summary: 'Operation counts per binding within an optional date range.',
    query: explorer.countOperations,
    success: { status: 200, description: 'Counts per binding.', schema: z.object({ items: z.array(z.unknown()) }) },
    handle: async ({ service, context, query }) => ok({ items: await service.explorer(context).countOperations(query as never) }),
  },
  {
    method: 'get',
    path: `${base}/metrics`,
    tag: 'explorer',
    operationId: 'explorer.metrics',
    summary: 'Recall hit rate, empty-query rate, corrections, extraction failures, success and failure, p50/p95 latency, per binding.',
    query: explorer.metrics,
    success: { status: 200, description: 'The metrics.' },
    handle: async ({ service, context, query }) => ok(await service.explorer(context).metrics(query as never)),
  },
  {
    method: 'get',
    path: `${base}/hook-deliveries`,
    tag: 'explorer',
    operationId: 'explorer.listHookDeliveries',
    summary: 'Hook deliveries, newest first, by cursor.',
    query: explorer.listHookDeliveries,
    success: page('A page of hook deliveries.'),
    handle: async ({ service, context, query }) => ok(await service.explorer(context).listHookDeliveries(query as never)),
  },
  {
    method: 'get',
    path: `${base}/extraction-jobs`,
    tag: 'explorer',
    operationId: 'explorer.listExtractionJobs',
    summary: 'Extraction jobs with the hook and source that caused each, newest first, by cursor (repeat `statuses` for several).',
    query: explorer.listExtractionJobs,
    success: page('A page of extraction jobs.'),
    handle: async ({ service, context, query }) => ok(await service.explorer(context).listExtractionJobs(query as never)),
  },
  {
    method: 'get',
    path: `${base}/cost-events`,
    tag: 'explorer',
    operationId: 'costs.listCostEvents',
    summary: 'What directly billed provider calls cost, as reported, newest first, by cursor.',
    query: costs.listCostEvents,
    success: page('A page of cost events.'),
    handle: async ({ service, context, query }) => ok(await service.costs(context).listCostEvents(query as never)),
  },
  {
    method: 'get',
    path: `${base}/finance-events`,
    tag: 'explorer',
    operationId: 'costs.listFinanceEvents',
    summary: 'Flat costs booked for the company, newest first, by cursor.',
    query: costs.listFinanceEvents,
    success: page('A page of finance events.'),
    handle: async ({ service, context, query }) => ok(await service.costs(context).listFinanceEvents(query as never)),
  },
  {
    method: 'post',
    path: `${base}/finance-events`,
    tag: 'explorer',
    operationId: 'costs.recordFinanceEvent',
    summary: 'Books a flat cost (a subscription, a storage invoice, a platform fee).',
    body: costs.recordFinanceEvent,
    success: { status: 201, description: 'The finance event.' },
    handle: async ({ service, context, body }) => ({ status: 201, body: await service.costs(context).recordFinanceEvent(body as never) }),
  },
  {
    method: 'get',
    path: `${base}/cost-summary`,
    tag: 'explorer',
    operationId: 'costs.summarize',
    summary: 'Metered and flat costs per company, agent, binding, day or month.',
    query: costs.summarize,
    success: { status: 200, description: 'The summary.' },
    handle: async ({ service, context, query }) => ok(await service.costs(context).summarize(query as never)),
  },
];
