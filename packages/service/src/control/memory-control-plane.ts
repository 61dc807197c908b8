import {
  identifierSchema,
  MemoryNotFoundError,
  MemoryValidationError,
  parseInput,
  stableStringify,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
} from '@memplane/core';
import { z } from 'zod';
import { activityEntry } from '../audit/activity-entry';
import { noCaptureHooks, type MemoryBinding, type MemoryBindingTarget, type ResolvedMemoryBinding } from '../bindings/memory-binding';
import { resolveBinding } from '../bindings/resolve-binding';
import { checkSecretReferences } from '../bindings/secret-reference';
import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { readPage, type MemoryExplorerPage } from '../explorer/explorer-pages';
import { authorizeCompany } from '../policy/authorize-company';
import type { MemoryProviderConfigDescription, MemoryProviderDescription } from '../providers/memory-provider-description';
import type { MemoryCallContext } from '../runtime/call-context';
import type { ServiceInternals } from '../service/service-internals';
import { checkBindingConfig } from '../providers/binding-rules';
import { parseArgument } from './parse-request';
import type { MemoryActivityAction, MemoryActivityEntry } from '../store/memory-service-records';
import {
  activityRequestSchema,
  bindingKeySchema,
  createBindingInputSchema,
  targetInputSchema,
  updateBindingInputSchema,
  type CreateMemoryBindingInput,
  type MemoryBindingTargetInput,
  type UpdateMemoryBindingInput,
} from './binding-input';

const providerIdSchema = z.string().min(1).max(64);

/** The control-plane API of one caller: bindings, targets, resolution and the activity log of the caller's company. */
export interface MemoryControlPlane {
  /** The providers bindings can name. */
  listProviders(): MemoryProviderDescription[];
  /**
   * One provider with what a binding config of it looks like: its JSON Schema, an example
   * (secrets as references) and its secret fields. Authorised as `bindings.read`, so agents are
   * refused; `MemoryNotFoundError` for a provider id the service does not know.
   */
  describeProvider(providerId: string): Promise<MemoryProviderConfigDescription>;
  /** Creates a binding; its config is validated, secrets must be references, its capabilities are read from its adapter. */
  createBinding(input: CreateMemoryBindingInput): Promise<MemoryBinding>;
  /** Changes a binding by key. */
  updateBinding(key: string, input: UpdateMemoryBindingInput): Promise<MemoryBinding>;
  /** Deletes a binding and the targets pointing at it; false when there was none. */
  deleteBinding(key: string): Promise<boolean>;
  /** One binding by key, or undefined. */
  getBinding(key: string): Promise<MemoryBinding | undefined>;
  /** Every binding of the company. */
  listBindings(): Promise<MemoryBinding[]>;
  /** Points the company default or an agent override at a binding. */
  setTarget(target: MemoryBindingTargetInput, bindingKey: string): Promise<MemoryBindingTarget>;
  /** Removes the company default or an agent override; false when there was none. */
  removeTarget(target: MemoryBindingTargetInput): Promise<boolean>;
  /** Every target of the company. */
  listTargets(): Promise<MemoryBindingTarget[]>;
  /** The binding in effect for an agent (or the company default); `MemoryBindingNotFoundError` when there is none. */
  resolve(agentId?: string): Promise<ResolvedMemoryBinding>;
  /** The activity log of the company, newest first, by cursor. */
  listActivity(request?: { cursor?: string; limit?: number }): Promise<MemoryExplorerPage<MemoryActivityEntry>>;
}

/** Creates the control plane of one caller. Every call is authorised as `bindings.read` or `bindings.write`. */
export function createMemoryControlPlane(internals: ServiceInternals, context: MemoryCallContext): MemoryControlPlane {
  const { store, registry } = internals;
  const company = (operation: 'bindings.read' | 'bindings.write') => authorizeCompany(internals.authorize, context, operation);

  const activity = (
    companyId: string,
    action: MemoryActivityAction,
    subject: { type: 'binding' | 'target'; id: string },
    before: unknown,
    after: unknown,
  ): MemoryActivityEntry => activityEntry(internals, context.actor, companyId, action, subject, before, after);
  async function capabilitiesOf(draft: MemoryBinding): Promise<{ capabilities: MemoryAdapterCapabilities; adapter?: MemoryAdapter }> {
    const definition = registry.require(draft.providerId);
    await checkBindingConfig(internals.bindingRules, draft, definition);
    // The operator's secret rules, for this company, before the config's shape: a reference the
    // company may not read is refused (and logged as such) wherever the config puts it, and
    // refused references never reach a build.
    internals.redactor.add(await checkSecretReferences(draft.config, internals.bindingRules.secrets, { companyId: draft.companyId, bindingKey: draft.key }));
    if (definition.configSchema !== undefined) parseInput(definition.configSchema, draft.config, 'binding config', 'config');
    if (definition.capabilities !== undefined) return { capabilities: structuredClone(definition.capabilities) };
    // Building the adapter checks the config end to end (secrets included) before anything is saved.
    const adapter = await internals.adapters.build(draft);
    return { capabilities: { ...adapter.capabilities }, adapter };
  }
  // A refusal by the operator's rules is itself logged (field and rule, never a value); every
  // error leaves with resolved secrets redacted.
  async function checked<Result>(companyId: string, draft: Pick<MemoryBinding, 'key' | 'providerId' | 'id'>, work: () => Promise<Result>): Promise<Result> {
    try {
      return await work();
    } catch (error) {
      if (MemoryBindingRefusedError.isInstance(error)) {
        const refusal = { key: draft.key, providerId: draft.providerId, rule: error.rule, field: error.field, message: error.issues[0]?.message };
        try {
          await store.appendActivity([activity(companyId, 'binding.refused', { type: 'binding', id: draft.id }, null, refusal)]);
        } catch (logError) {
          internals.reportBackgroundError(logError, 'appendActivity');
        }
      }
      throw internals.redactor.redactError(error);
    }
  }
  // The adapter built to read a manifest serves the saved binding; if the save fails, it is closed.
  async function saveThenAdopt(binding: MemoryBinding, adapter: MemoryAdapter | undefined, save: () => Promise<void>): Promise<void> {
    try {
      await save();
    } catch (error) {
      const closable = adapter as (MemoryAdapter & { close?: () => unknown }) | undefined;
      if (typeof closable?.close === 'function') await closable.close();
      throw error;
    }
    if (adapter !== undefined) internals.adapters.adopt(binding, adapter);
  }

  async function requireBinding(companyId: string, key: string): Promise<MemoryBinding> {
    const binding = await store.getBindingByKey(companyId, parseInput(bindingKeySchema, key, 'binding key', 'key'));
    if (binding === undefined) throw new MemoryBindingNotFoundError({ companyId, bindingKey: key });
    return binding;
  }

  const targetIdOf = (companyId: string, target: MemoryBindingTargetInput) => (target.targetType === 'company' ? companyId : target.agentId);

  return {
    listProviders: () => registry.list(),

    async describeProvider(providerId) {
      const valid = parseInput(providerIdSchema, providerId, 'provider id', 'providerId');
      await company('bindings.read');
      const description = registry.describe(valid);
      if (description === undefined) throw new MemoryNotFoundError({ resourceId: valid, message: `No provider "${valid}"; known: ${registry.list().map((entry) => entry.providerId).join(', ')}.` });
      return description;
    },

    async createBinding(input) {
      const valid = parseArgument(createBindingInputSchema, input, 'binding', 'input');
      const companyId = await company('bindings.write');
      const now = internals.now();
      const draft: MemoryBinding = {
        id: internals.createId('bnd'),
        companyId,
        key: valid.key,
        providerId: valid.providerId,
        config: valid.config ?? {},
        enabled: valid.enabled ?? true,
        hooks: { ...noCaptureHooks, ...valid.hooks },
        ...(valid.quota === undefined ? {} : { quota: valid.quota }),
        capabilities: {},
        revision: 1,
        createdAt: now,
        updatedAt: now,
      };
      return checked(companyId, draft, async () => {
        const { capabilities, adapter } = await capabilitiesOf(draft);
        const binding = { ...draft, capabilities };
        await saveThenAdopt(binding, adapter, () =>
          store.insertBinding(binding, [activity(companyId, 'binding.created', { type: 'binding', id: binding.id }, null, binding)]),
        );
        return binding;
      });
    },

    async updateBinding(key, input) {
      const valid = parseArgument(updateBindingInputSchema, input, 'binding change', 'input');
      const companyId = await company('bindings.write');
      const existing = await requireBinding(companyId, key);
      // The key is the binding's stable name in targets, logs and cost events: it never changes.
      if (valid.key !== undefined && valid.key !== existing.key) {
        throw new MemoryValidationError({
          target: 'binding change',
          issues: [{ path: 'key', message: 'is immutable: create a binding under the new key and point the targets at it' }],
        });
      }
      const { quota: _previousQuota, ...unquoted } = existing;
      const quota = valid.quota === undefined ? existing.quota : (valid.quota ?? undefined);
      const next: MemoryBinding = {
        ...unquoted,
        ...(quota === undefined ? {} : { quota }),
        ...(valid.providerId === undefined ? {} : { providerId: valid.providerId }),
        ...(valid.config === undefined ? {} : { config: valid.config }),
        ...(valid.enabled === undefined ? {} : { enabled: valid.enabled }),
        hooks: { ...existing.hooks, ...valid.hooks },
        revision: existing.revision + 1,
        updatedAt: internals.now(),
      };
      const providerChanged =
        next.providerId !== existing.providerId || stableStringify(next.config) !== stableStringify(existing.config);
      return checked(companyId, next, async () => {
        let adapter: MemoryAdapter | undefined;
        if (providerChanged) ({ capabilities: next.capabilities, adapter } = await capabilitiesOf(next));
        await saveThenAdopt(next, adapter, () =>
          store.updateBinding(next, valid.expectedRevision ?? existing.revision, [
            activity(companyId, 'binding.updated', { type: 'binding', id: next.id }, existing, next),
          ]),
        );
        return next;
      });
    },

    async deleteBinding(key) {
      const companyId = await company('bindings.write');
      const existing = await store.getBindingByKey(companyId, parseInput(bindingKeySchema, key, 'binding key', 'key'));
      if (existing === undefined) return false;
      const targets = (await store.listTargets(companyId)).filter((target) => target.bindingId === existing.id);
      // Counts still queued go in first, so the deletion removes them with the rest.
      await internals.usageSettlements.flush();
      return store.deleteBinding(companyId, existing.id, [
        ...targets.map((target) =>
          activity(companyId, 'target.removed', { type: 'target', id: `${target.targetType}:${target.targetId}` }, target, null),
        ),
        activity(companyId, 'binding.deleted', { type: 'binding', id: existing.id }, existing, null),
      ]);
    },

    async getBinding(key) {
      const companyId = await company('bindings.read');
      return store.getBindingByKey(companyId, parseInput(bindingKeySchema, key, 'binding key', 'key'));
    },

    async listBindings() {
      return store.listBindings(await company('bindings.read'));
    },

    async setTarget(target, bindingKey) {
      const validTarget = parseInput(targetInputSchema, target, 'binding target', 'target');
      parseInput(bindingKeySchema, bindingKey, 'binding key', 'bindingKey');
      const companyId = await company('bindings.write');
      const binding = await requireBinding(companyId, bindingKey);
      const targetId = targetIdOf(companyId, validTarget);
      const before = await store.getTarget(companyId, validTarget.targetType, targetId);
      const now = internals.now();
      const after: MemoryBindingTarget = {
        companyId,
        targetType: validTarget.targetType,
        targetId,
        bindingId: binding.id,
        createdAt: before?.createdAt ?? now,
        updatedAt: now,
      };
      await store.putTarget(after, [
        activity(companyId, 'target.set', { type: 'target', id: `${after.targetType}:${targetId}` }, before, { ...after, bindingKey: binding.key }),
      ]);
      return after;
    },

    async removeTarget(target) {
      const validTarget = parseInput(targetInputSchema, target, 'binding target', 'target');
      const companyId = await company('bindings.write');
      const targetId = targetIdOf(companyId, validTarget);
      const before = await store.getTarget(companyId, validTarget.targetType, targetId);
      if (before === undefined) return false;
      return store.deleteTarget(companyId, validTarget.targetType, targetId, [
        activity(companyId, 'target.removed', { type: 'target', id: `${validTarget.targetType}:${targetId}` }, before, null),
      ]);
    },

    async listTargets() {
      return store.listTargets(await company('bindings.read'));
    },

    async resolve(agentId) {
      const validAgent = agentId === undefined ? undefined : parseInput(identifierSchema, agentId, 'agent id', 'agentId');
      const companyId = await company('bindings.read');
      return resolveBinding(store, companyId, validAgent);
    },

    async listActivity(request) {
      const valid = parseArgument(activityRequestSchema, request, 'activity request', 'request') ?? {};
      const companyId = await company('bindings.read');
      return readPage(internals.codec, { companyId, listing: 'activity', filter: null }, valid, (page) =>
        store.listActivity(companyId, page),
      );
    },
  };
}
