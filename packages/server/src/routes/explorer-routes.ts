import { identifierSchema, MemoryNotFoundError } from '@memplane/core';
import { serviceRequestSchemas } from '@memplane/service';
import { z } from 'zod';
import { ok, pageSchema, type ServerCall, type ServerRoute } from '../server-route';

const base = '/v1/companies/:companyId/explorer';
const explorer = serviceRequestSchemas.explorer;
const costs = serviceRequestSchemas.costs;
const page = (description: string) => ({ status: 200 as const, description, schema: pageSchema });

/** A GET endpoint whose query parameters are one service request, answered by one service method. */
function read(path: string, operationId: string, summary: string, query: z.ZodObject, success: ServerRoute['success'], run: (call: ServerCall) => Promise<unknown>): ServerRoute {
  return { method: 'get', path: `${base}/${path}`, tag: 'explorer', operationId, summary, query, success, handle: async (call) => ok(await run(call)) };
}

/** The explorer endpoints: the operation log with every filter, counts, metrics, hook deliveries, extraction jobs, costs and finance events. */
export const explorerRoutes: ServerRoute[] = [
  read(
    'operations',
    'explorer.listOperations',
    'The operation log, newest first, filtered by actor (who called: `actor`, with `actorKind` beside it), scope agent, issue, project, run, source kind, operation, status, binding and date range, by cursor.',
    explorer.listOperations,
    page('A page of operations.'),
    ({ service, context, query }) => service.explorer(context).listOperations(query as never),
  ),
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
  read(
    'operation-counts',
    'explorer.countOperations',
    'Operation counts per binding within an optional date range.',
    explorer.countOperations,
    { status: 200, description: 'Counts per binding.', schema: z.object({ items: z.array(z.unknown()) }) },
    async ({ service, context, query }) => ({ items: await service.explorer(context).countOperations(query as never) }),
  ),
  read(
    'metrics',
    'explorer.metrics',
    'Recall hit rate, empty-query rate, corrections, extraction failures, success and failure, p50/p95 latency, per binding.',
    explorer.metrics,
    { status: 200, description: 'The metrics.' },
    ({ service, context, query }) => service.explorer(context).metrics(query as never),
  ),
  read('hook-deliveries', 'explorer.listHookDeliveries', 'Hook deliveries, newest first, by cursor.', explorer.listHookDeliveries, page('A page of hook deliveries.'), ({ service, context, query }) =>
    service.explorer(context).listHookDeliveries(query as never),
  ),
  read(
    'extraction-jobs',
    'explorer.listExtractionJobs',
    'Extraction jobs with the hook and source that caused each, newest first, by cursor (repeat `statuses` for several).',
    explorer.listExtractionJobs,
    page('A page of extraction jobs.'),
    ({ service, context, query }) => service.explorer(context).listExtractionJobs(query as never),
  ),
  read('cost-events', 'costs.listCostEvents', 'What directly billed provider calls cost, as reported, newest first, by cursor.', costs.listCostEvents, page('A page of cost events.'), ({ service, context, query }) =>
    service.costs(context).listCostEvents(query as never),
  ),
  read('finance-events', 'costs.listFinanceEvents', 'Flat costs booked for the company, newest first, by cursor.', costs.listFinanceEvents, page('A page of finance events.'), ({ service, context, query }) =>
    service.costs(context).listFinanceEvents(query as never),
  ),
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
  read('cost-summary', 'costs.summarize', 'Metered and flat costs per company, agent, binding, day or month.', costs.summarize, { status: 200, description: 'The summary.' }, ({ service, context, query }) =>
    service.costs(context).summarize(query as never),
  ),
];
