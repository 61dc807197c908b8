import { isWellFormedText, MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { assistantTurnsSchema } from '@memplane/rules';
import { z } from 'zod';
import { parseMemorizeInput, type MemorizeInput } from '../flows/memorize-input';
import type { MemorizeResult } from '../flows/memorize-persist';
import { resolveRetrieveOptions } from '../flows/retrieve-options';
import type { RetrieveResult } from '../flows/retrieve-recall';
import { resolveEvolveOptions, type EvolveDiff } from '../flows/evolve-steps';
import { describeModel, resolveProfiles } from '../profiles/llm-profiles';
import { createSyncRunner } from '../runner/sync-runner';
import { createScopeModel } from '../scope/scope-model';
import { resolveScopePolicy } from '../scope/scope-policy';
import { resolveScopeSelector } from '../scope/scope-selector';
import { createInMemoryStore } from '../store/memory/memory-store';
import { sortableId } from '../support/sortable-id';
import type { ScopeValues } from '../store/engine-store-rows';
import { resolveCategories } from './category-definitions';
import { createPipelineController } from './engine-pipelines';
import { correctItem, forgetItems, reviewItem, writeItems } from './engine-items';
import { readCategories } from './engine-reads';
import { createEngineRunResolver, engineIdentity } from './engine-run-resolver';
import { runFlow, type FlowRunContext } from './engine-runs';
import type { EngineServices } from './engine-services';
import type { MemoryEngineSettings } from './engine-settings';
import type { MemoryEngine } from './memory-engine';

/** The DDL version of the store layout this engine expects. */
export const engineDdlVersion = 1;

function inputSummary(input: MemorizeInput): string {
  if (input.type === 'conversation') return `conversation: ${input.messages.length} messages, ${input.messages.reduce((sum, message) => sum + message.content.length, 0)} characters`;
  if (input.pages !== undefined) return `resource: ${input.pages.length} pages`;
  if (input.data !== undefined) return `resource: ${input.mimeType ?? 'file'}, ${typeof input.data === 'string' ? 'base64' : `${input.data.byteLength} bytes`}`;
  return input.content === undefined ? 'resource: uri only' : `resource: ${input.content.length} characters`;
}

const extractionSettingsSchema = z.strictObject({ assistantTurns: assistantTurnsSchema.optional() }).optional();

/** The extraction settings with their defaults; a bad one is a `MemoryConfigurationError` naming it. */
function resolveExtraction(extraction: unknown): EngineServices['extraction'] {
  const parsed = extractionSettingsSchema.safeParse(extraction);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['extraction', ...(issue?.path ?? []).map(String)].join('.');
    throw new MemoryConfigurationError({ message: `${path}: ${issue?.message ?? 'invalid'} (assistantTurns is 'skip' or 'keep').` });
  }
  return { assistantTurns: parsed.data?.assistantTurns ?? 'skip' };
}

/**
 * Creates a memory engine (§4.1): checks the scope schema, profiles, categories and policy,
 * opens the store (provisioning or validating its schema, refusing a scope schema mismatch), and
 * loads the current pipeline revision. Throws `MemoryConfigurationError` naming what is wrong.
 */
export async function createMemoryEngine(settings: MemoryEngineSettings): Promise<MemoryEngine> {
  const schemaFields = Object.keys((settings.scope?.shape ?? {}) as object);
  const scopeModel = createScopeModel({ schema: settings.scope, boundaryFields: settings.boundaryFields ?? schemaFields.slice(0, 1) });
  const profiles = resolveProfiles(settings.profiles);
  const roleProfiles = settings.roleProfiles ?? {};
  for (const [role, name] of Object.entries(roleProfiles)) {
    if (name !== undefined && !profiles.has(name)) throw new MemoryConfigurationError({ message: `roleProfiles.${role} names no profile: "${name}".` });
  }
  const embeddingName = settings.embeddingProfile ?? 'default';
  const embeddingCandidate = profiles.get(embeddingName);
  if (settings.embeddingProfile !== undefined && embeddingCandidate?.embeddingModel === undefined) {
    throw new MemoryConfigurationError({ message: `embeddingProfile "${embeddingName}" has no embedding model.` });
  }
  const embeddingProfile = embeddingCandidate?.embeddingModel === undefined ? undefined : embeddingCandidate;
  const { categories, taxonomyVersion } = resolveCategories(settings.categories);
  const policy = resolveScopePolicy(settings.policy);
  const extraction = resolveExtraction(settings.extraction);
  const store = settings.store ?? createInMemoryStore();
  const vectorIndex = settings.vectorIndex === null ? undefined : (settings.vectorIndex ?? store.vectorIndex);
  const clock = settings.now ?? (() => new Date());
  const now = () => clock().toISOString();
  const meta = await store.open({
    ddlMode: settings.ddlMode ?? 'create',
    meta: {
      scopeSchemaHash: scopeModel.hash,
      scopeFields: scopeModel.fields,
      boundaryFields: scopeModel.boundaryFields,
      ddlVersion: engineDdlVersion,
      taxonomyVersion,
      providerSummary: {
        store: store.name,
        vectorIndex: vectorIndex?.name ?? 'none',
        vectorIndexInferred: settings.vectorIndex === undefined,
        profiles: Object.fromEntries([...profiles].map(([name, profile]) => [name, { model: describeModel(profile.model), embeddingModel: describeModel(profile.embeddingModel) }])),
      },
      createdAt: now(),
    },
  });
  const environment = { profiles, roleProfiles, hasVectorIndex: vectorIndex !== undefined };
  const controller = await createPipelineController(store, environment, settings.steps ?? [], now);
  const servicesFor = (pipelineRevision: number): EngineServices => ({
    store, vectorIndex, scopeModel, policy, categories, taxonomyVersion, profiles, embeddingProfile, pipelineRevision, extraction, now,
    newId: sortableId,
  });
  const services = () => servicesFor(controller.current().revision);
  const context: FlowRunContext = { runner: settings.runner ?? createSyncRunner(), controller, roleProfiles, servicesFor, identity: engineIdentity(store, meta) };
  // A queued runner resumes this engine's runs in any process that has an engine on the same store.
  const detach = context.runner.attach?.(createEngineRunResolver(context));
  const full = (scope: unknown, target: string): ScopeValues => scopeModel.parseFull(scope, target);
  const exactRange = (scope: ScopeValues) => Object.fromEntries(Object.entries(scope).map(([field, value]) => [field, [value]]));

  return {
    meta,
    async memorize(scope, input, options) {
      const checkedScope = full(scope, 'memorize scope');
      const checkedInput = parseMemorizeInput(input);
      const { output, runId } = await runFlow<MemorizeResult>(context, {
        flow: 'memorize',
        state: { scope: checkedScope, input: checkedInput, options: {} },
        scopeRange: exactRange(checkedScope),
        inputSummary: inputSummary(checkedInput),
        signal: options?.signal,
      });
      return { ...output, runId };
    },
    async retrieve(selector, query, options) {
      const { range, combinations } = resolveScopeSelector(scopeModel, selector, policy, 'retrieve scope selector');
      if (typeof query !== 'string' || query.length > 10_000 || !isWellFormedText(query)) {
        throw new MemoryValidationError({ target: 'retrieve query', issues: [{ path: 'query', message: 'must be well-formed text of at most 10000 characters' }] });
      }
      const resolved = resolveRetrieveOptions(options === undefined ? {} : { ...options, signal: undefined }, policy);
      const { output, runId } = await runFlow<RetrieveResult>(context, {
        flow: 'retrieve',
        state: { scopeRange: range, query, options: resolved },
        scopeRange: range,
        inputSummary: `query: ${query.length} characters, ${combinations} scope combinations`,
        signal: options?.signal,
      });
      return { ...output, runId };
    },
    async evolve(scope, options) {
      const checkedScope = full(scope, 'evolve scope');
      const resolved = resolveEvolveOptions(options);
      const { output, runId } = await runFlow<EvolveDiff>(context, {
        flow: 'evolve',
        state: { scope: checkedScope, options: resolved },
        scopeRange: exactRange(checkedScope),
        inputSummary: `evolve up to ${resolved.maxItems} items${resolved.dryRun ? ' (dry run)' : ''}`,
      });
      return { ...output, runId };
    },
    listCategories: async (scope, options) => readCategories(services(), full(scope, 'listCategories scope'), undefined, options),
    getCategory: async (scope, key, options) => (await readCategories(services(), full(scope, 'getCategory scope'), key, options))[0],
    getLatestIntention: async (scope) => store.getLatestIntention(full(scope, 'getLatestIntention scope')),
    writeItems: async (scope, items) => writeItems(services(), full(scope, 'writeItems scope'), items),
    getItems: async (scope, itemIds) => store.getItems(full(scope, 'getItems scope'), itemIds),
    readItems: async (selector, itemIds) => store.getItemsInRange(resolveScopeSelector(scopeModel, selector, policy, 'readItems scope selector').range, itemIds),
    listItems: async (selector, filter, page) =>
      store.listItems(resolveScopeSelector(scopeModel, selector, policy, 'listItems scope selector').range, filter, { after: page.after, limit: Math.min(Math.max(Math.trunc(page.limit), 1), 1001) }),
    correct: async (scope, itemId, correction) => correctItem(services(), full(scope, 'correct scope'), itemId, correction),
    review: async (scope, itemId, decision) => reviewItem(services(), full(scope, 'review scope'), itemId, decision),
    forget: async (scope, itemIds) => forgetItems(services(), full(scope, 'forget scope'), itemIds),
    config: (stepId, config) => controller.apply({ kind: 'config', stepId, config }),
    insertAfter: (stepId, step) => controller.apply({ kind: 'insert_after', stepId, step }),
    insertBefore: (stepId, step) => controller.apply({ kind: 'insert_before', stepId, step }),
    replace: (stepId, step) => controller.apply({ kind: 'replace', stepId, step }),
    remove: (stepId) => controller.apply({ kind: 'remove', stepId }),
    rollback: (revision) => controller.rollback(revision),
    listPipelineRevisions: () => store.listPipelineRevisions(),
    describePipelines() {
      const { revision, set } = controller.current();
      return { revision, flows: { memorize: set.flows.memorize.map((step) => step.stepId), retrieve: set.flows.retrieve.map((step) => step.stepId), evolve: set.flows.evolve.map((step) => step.stepId) } };
    },
    listRuns: (options) => store.listRuns({ flow: options?.flow, limit: Math.min(Math.max(options?.limit ?? 50, 1), 1000) }),
    close: async () => {
      detach?.();
      await store.close();
    },
  };
}
