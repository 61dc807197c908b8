import { identifierSchema, MemoryNotFoundError, MemoryValidationError } from '@memplane/core';
import { serviceRequestSchemas } from '@memplane/service';
import { z } from 'zod';
import { ok, pageSchema, type ServerRoute } from '../server-route';

const base = '/v1/companies/:companyId/control';
const control = serviceRequestSchemas.control;
const bindingKeyParams = z.object({ bindingKey: control.bindingKey });
const items = z.object({ items: z.array(z.unknown()) });

/** `PUT targets`: which binding a target points at. */
export const setTargetBodySchema = z.strictObject({ target: control.target, bindingKey: control.bindingKey });

/** `DELETE targets`: the target to remove, as query parameters. */
export const removeTargetQuerySchema = z.strictObject({ targetType: z.enum(['company', 'agent']), agentId: identifierSchema.optional() });

/** `GET providers/{providerId}`: a provider with its config's JSON Schema, an example and its secret fields. */
export const providerConfigSchema = z.object({
  providerId: z.string(),
  description: z.string(),
  origin: z.enum(['configured', 'registered']),
  configSchema: z.record(z.string(), z.unknown()).describe('The config as a JSON Schema (draft 2020-12); secret fields are `$secret` references.'),
  configExample: z.record(z.string(), z.unknown()).describe('An example config; every secret is a `$secret` reference.'),
  secretFields: z.array(z.string()).describe('Dotted config paths that must hold secret references.'),
});

/** Query keys a route does not know are refused, as the service's strict schemas refuse unknown fields. */
function refuseUnknown(rest: Record<string, unknown>, target: string): void {
  const keys = Object.keys(rest);
  if (keys.length > 0) throw new MemoryValidationError({ target, issues: keys.map((key) => ({ path: key, message: 'is not a known parameter' })) });
}

/** The control-plane endpoints: providers (and each one's config), bindings, targets, resolution and the activity log. */
export const controlRoutes: ServerRoute[] = [
  {
    method: 'get',
    path: `${base}/providers`,
    tag: 'control',
    operationId: 'control.listProviders',
    summary: 'The providers bindings can name.',
    // What the first binding of a new company may name: answered in a company not known yet too.
    company: 'any',
    success: { status: 200, description: 'The providers.', schema: items },
    async handle({ service, context }) {
      const plane = service.control(context);
      // The provider list is not company data, but the endpoint is a company's: reading its
      // bindings first puts the call through the policy (`bindings.read`) like every other.
      await plane.listBindings();
      return ok({ items: plane.listProviders() });
    },
  },
  {
    method: 'get',
    path: `${base}/providers/:providerId`,
    tag: 'control',
    operationId: 'control.describeProvider',
    summary: "One provider and what a binding config of it looks like: its JSON Schema, an example (secrets as `$secret` references, never values) and its secret fields. Operators and company admins; agents are refused.",
    // Like the provider list: what the first binding of a new company may name.
    company: 'any',
    params: z.object({ providerId: z.string().min(1).max(64) }),
    success: { status: 200, description: 'The provider and its config.', schema: providerConfigSchema },
    handle: async ({ service, context, params }) => ok(await service.control(context).describeProvider(params.providerId ?? '')),
  },
  {
    method: 'get',
    path: `${base}/bindings`,
    tag: 'control',
    operationId: 'control.listBindings',
    summary: 'Every binding of the company.',
    success: { status: 200, description: 'The bindings.', schema: items },
    handle: async ({ service, context }) => ok({ items: await service.control(context).listBindings() }),
  },
  {
    method: 'post',
    path: `${base}/bindings`,
    tag: 'control',
    operationId: 'control.createBinding',
    summary: 'Creates a binding; its config is validated and secrets must be references.',
    // The explicit start of a company: the operator's own binding, never the zero-config default beside it.
    company: 'any',
    body: control.createBinding,
    success: { status: 201, description: 'The binding.' },
    handle: async ({ service, context, body }) => ({ status: 201, body: await service.control(context).createBinding(body as never) }),
  },
  {
    method: 'get',
    path: `${base}/bindings/:bindingKey`,
    tag: 'control',
    operationId: 'control.getBinding',
    summary: 'One binding by key.',
    params: bindingKeyParams,
    success: { status: 200, description: 'The binding.' },
    async handle({ service, context, params }) {
      const binding = await service.control(context).getBinding(params.bindingKey ?? '');
      if (binding === undefined) throw new MemoryNotFoundError({ resourceId: params.bindingKey ?? '', message: `No binding "${params.bindingKey}" in this company.` });
      return ok(binding);
    },
  },
  {
    method: 'patch',
    path: `${base}/bindings/:bindingKey`,
    tag: 'control',
    operationId: 'control.updateBinding',
    summary: 'Changes a binding (enable, disable, config, hooks, quota); `expectedRevision` guards against lost updates.',
    params: bindingKeyParams,
    body: control.updateBinding,
    success: { status: 200, description: 'The binding.' },
    handle: async ({ service, context, params, body }) => ok(await service.control(context).updateBinding(params.bindingKey ?? '', body as never)),
  },
  {
    method: 'delete',
    path: `${base}/bindings/:bindingKey`,
    tag: 'control',
    operationId: 'control.deleteBinding',
    summary: 'Deletes a binding and the targets pointing at it.',
    params: bindingKeyParams,
    success: { status: 200, description: '`deleted` is false when there was no such binding.', schema: z.object({ deleted: z.boolean() }) },
    handle: async ({ service, context, params }) => ok({ deleted: await service.control(context).deleteBinding(params.bindingKey ?? '') }),
  },
  {
    method: 'get',
    path: `${base}/targets`,
    tag: 'control',
    operationId: 'control.listTargets',
    summary: 'Every target of the company: the company default and agent overrides.',
    success: { status: 200, description: 'The targets.', schema: items },
    handle: async ({ service, context }) => ok({ items: await service.control(context).listTargets() }),
  },
  {
    method: 'put',
    path: `${base}/targets`,
    tag: 'control',
    operationId: 'control.setTarget',
    summary: 'Points the company default or an agent override at a binding.',
    body: setTargetBodySchema,
    success: { status: 200, description: 'The target.' },
    async handle({ service, context, body }) {
      const request = (body ?? {}) as { target?: unknown; bindingKey?: unknown };
      return ok(await service.control(context).setTarget(request.target as never, request.bindingKey as never));
    },
  },
  {
    method: 'delete',
    path: `${base}/targets`,
    tag: 'control',
    operationId: 'control.removeTarget',
    summary: 'Removes the company default (`targetType=company`) or an agent override (`targetType=agent&agentId=`).',
    query: removeTargetQuerySchema,
    success: { status: 200, description: '`removed` is false when there was none.', schema: z.object({ removed: z.boolean() }) },
    async handle({ service, context, query }) {
      // The service's target schema checks the pair (an agent target needs its agentId, a company one takes none).
      const { targetType, agentId, ...rest } = query;
      refuseUnknown(rest, 'target');
      const target = { targetType, ...(agentId === undefined ? {} : { agentId }) };
      return ok({ removed: await service.control(context).removeTarget(target as never) });
    },
  },
  {
    method: 'get',
    path: `${base}/resolve`,
    tag: 'control',
    operationId: 'control.resolve',
    summary: 'The binding in effect for an agent (or the company default), and how it was resolved.',
    query: z.strictObject({ agentId: identifierSchema.optional() }),
    success: { status: 200, description: 'The resolved binding.' },
    async handle({ service, context, query }) {
      const { agentId, ...rest } = query;
      refuseUnknown(rest, 'resolve query');
      return ok(await service.control(context).resolve(agentId as string | undefined));
    },
  },
  {
    method: 'get',
    path: `${base}/activity`,
    tag: 'control',
    operationId: 'control.listActivity',
    summary: 'The activity log of the company (binding and target changes), newest first, by cursor.',
    query: control.listActivity.unwrap(),
    success: { status: 200, description: 'A page of activity entries.', schema: pageSchema },
    handle: async ({ service, context, query }) => ok(await service.control(context).listActivity(query as never)),
  },
];
