import type { ServerHarness } from './server-harness';

/** One endpoint with a valid request, as the endpoint coverage tests call it. */
export interface EndpointCase {
  /** `METHOD path` with `{companyId}` left in, as the OpenAPI document names it. */
  route: string;
  /** The path for company `acme`. */
  path: string;
  /** The token that may make the call. */
  token: keyof ServerHarness['token'];
  /** A valid body, when the endpoint takes one. */
  body?: unknown;
  /** What the valid call answers. */
  status: number;
}

const m = '/v1/companies/acme/memory';
const c = '/v1/companies/acme/control';
const e = '/v1/companies/acme/explorer';

/** Every `/v1` endpoint of the server with a valid call; `handle` is a record of acme, `operationId` one of its operations. */
export function endpointCases(known: { handle: unknown; operationId: string; jobId: string }): EndpointCase[] {
  return [
    { route: 'GET /v1/session', path: '/v1/session', token: 'adminAcme', status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/capture', path: `${m}/capture`, token: 'agentAcme', body: { source: { kind: 'manual_note' }, payload: { text: 'Deploys happen on Fridays.' } }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/records', path: `${m}/records`, token: 'agentAcme', body: { records: [{ text: 'The staging host is blue.' }] }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/query', path: `${m}/query`, token: 'agentAcme', body: { query: 'staging host' }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/list', path: `${m}/list`, token: 'agentAcme', body: { limit: 5 }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/get', path: `${m}/get`, token: 'agentAcme', body: { handle: known.handle }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/correct', path: `${m}/correct`, token: 'agentAcme', body: { handle: known.handle, patch: { text: 'The staging host is green.' } }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/profile', path: `${m}/profile`, token: 'agentAcme', body: {}, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/provider-jobs', path: `${m}/provider-jobs`, token: 'agentAcme', body: {}, status: 422 },
    { route: 'POST /v1/companies/{companyId}/memory/refused-calls', path: `${m}/refused-calls`, token: 'agentAcme', body: { operation: 'query', via: 'memory_search', code: 'MEMORY_VALIDATION', fields: ['topK'] }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/jobs/refresh', path: `${m}/jobs/refresh`, token: 'agentAcme', body: {}, status: 200 },
    { route: 'GET /v1/companies/{companyId}/memory/jobs', path: `${m}/jobs?limit=5&statuses=failed&statuses=queued`, token: 'agentAcme', status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/jobs/{jobId}/retry', path: `${m}/jobs/${known.jobId}/retry`, token: 'agentAcme', status: 404 },
    { route: 'POST /v1/companies/{companyId}/memory/hooks/{hookKind}', path: `${m}/hooks/manual_capture`, token: 'adminAcme', body: { text: 'A note handed in by hand.' }, status: 200 },
    { route: 'POST /v1/companies/{companyId}/memory/forget', path: `${m}/forget`, token: 'agentAcme', body: { handles: [known.handle] }, status: 200 },
    { route: 'GET /v1/companies/{companyId}/control/providers', path: `${c}/providers`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/control/providers/{providerId}', path: `${c}/providers/markdown`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/control/bindings', path: `${c}/bindings`, token: 'adminAcme', status: 200 },
    { route: 'POST /v1/companies/{companyId}/control/bindings', path: `${c}/bindings`, token: 'adminAcme', body: { key: 'scratch', providerId: 'memory' }, status: 201 },
    { route: 'GET /v1/companies/{companyId}/control/bindings/{bindingKey}', path: `${c}/bindings/scratch`, token: 'adminAcme', status: 200 },
    { route: 'PATCH /v1/companies/{companyId}/control/bindings/{bindingKey}', path: `${c}/bindings/scratch`, token: 'adminAcme', body: { enabled: false }, status: 200 },
    { route: 'PUT /v1/companies/{companyId}/control/targets', path: `${c}/targets`, token: 'adminAcme', body: { target: { targetType: 'agent', agentId: 'writer' }, bindingKey: 'default' }, status: 200 },
    { route: 'GET /v1/companies/{companyId}/control/targets', path: `${c}/targets`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/control/resolve', path: `${c}/resolve?agentId=writer`, token: 'adminAcme', status: 200 },
    { route: 'DELETE /v1/companies/{companyId}/control/targets', path: `${c}/targets?targetType=agent&agentId=writer`, token: 'adminAcme', status: 200 },
    { route: 'DELETE /v1/companies/{companyId}/control/bindings/{bindingKey}', path: `${c}/bindings/scratch`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/control/activity', path: `${c}/activity?limit=5`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/operations', path: `${e}/operations?limit=5&agentId=planner&status=succeeded&operation=query`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/operations/{operationId}', path: `${e}/operations/${known.operationId}`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/operation-counts', path: `${e}/operation-counts`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/metrics', path: `${e}/metrics?from=2020-01-01T00:00:00Z`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/hook-deliveries', path: `${e}/hook-deliveries?limit=5`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/extraction-jobs', path: `${e}/extraction-jobs?limit=5`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/cost-events', path: `${e}/cost-events?limit=5`, token: 'adminAcme', status: 200 },
    { route: 'POST /v1/companies/{companyId}/explorer/finance-events', path: `${e}/finance-events`, token: 'adminAcme', body: { kind: 'subscription', biller: 'mem0', amountCents: 1900 }, status: 201 },
    { route: 'GET /v1/companies/{companyId}/explorer/finance-events', path: `${e}/finance-events?limit=5`, token: 'adminAcme', status: 200 },
    { route: 'GET /v1/companies/{companyId}/explorer/cost-summary', path: `${e}/cost-summary?groupBy=day`, token: 'adminAcme', status: 200 },
  ];
}
