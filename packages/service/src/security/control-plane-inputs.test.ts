import { identifierSchema, MemoryValidationError } from '@memplane/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindingKeySchema } from '../control/binding-input';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, bindCompanyDefault, createTestService } from '../test-support/service-test-support';

// Anything a caller could pass that is not what a method takes.
const garbage = fc.oneof(
  fc.constantFrom(null, undefined, 0, -1, Number.NaN, '', ' ', 'x'.repeat(5000), true, [], {}, [null], { key: null }, { __proto__: null }),
  fc.anything({ maxDepth: 2 }),
);

type Call = (value: unknown) => Promise<unknown>;

// A well-formed key or agent id is not malformed: it gets its answer (found or not found).
const isKey = (value: unknown) => bindingKeySchema.safeParse(value).success;
const isIdentifier = (value: unknown) => value === undefined || identifierSchema.safeParse(value).success;

describe('every control-plane method answers malformed input with a typed error, writing nothing', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  beforeAll(async () => {
    ({ service, cleanUp } = await createTestService());
    await bindCompanyDefault(service, actors.acmeAdmin, 'default', 'memory');
  });
  afterAll(async () => cleanUp());

  const control = () => service.control(as(actors.acmeAdmin));
  const operator = as(actors.acmeOperator, { companyId: 'acme' });
  // Each method with the argument under attack; `null` must name a field for every one of them.
  const calls: Record<string, { call: Call; valid: (value: unknown) => boolean }> = {
    'createBinding(input)': { call: (value) => control().createBinding(value as never), valid: () => false },
    'updateBinding(key)': { call: (value) => control().updateBinding(value as never, { enabled: true }), valid: isKey },
    'updateBinding(key, input)': {
      call: (value) => control().updateBinding('default', value as never),
      valid: (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0,
    },
    'deleteBinding(key)': { call: (value) => control().deleteBinding(value as never), valid: isKey },
    'getBinding(key)': { call: (value) => control().getBinding(value as never), valid: isKey },
    'setTarget(target)': { call: (value) => control().setTarget(value as never, 'default'), valid: () => false },
    'setTarget(target, key)': { call: (value) => control().setTarget({ targetType: 'company' }, value as never), valid: isKey },
    'removeTarget(target)': { call: (value) => control().removeTarget(value as never), valid: () => false },
    'resolve(agentId)': { call: (value) => control().resolve(value as never), valid: isIdentifier },
    'listActivity(request)': {
      call: (value) => control().listActivity(value as never),
      valid: (value) => value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0),
    },
    'control(context)': { call: async (value) => service.control(value as never), valid: () => false },
    'providers.register(context)': {
      call: (value) => service.providers.register(value as never, { providerId: 'garbage-kb', description: 'x', create: () => ({}) as never }),
      valid: () => false,
    },
    'providers.register(definition)': { call: (value) => service.providers.register(operator, value as never), valid: () => false },
    'providers.register(options)': {
      call: (value) => service.providers.register(operator, { providerId: 'memory', description: 'x', create: () => ({}) as never }, value as never),
      valid: (value) => value === undefined,
    },
    'pruneOperationLog(context)': { call: (value) => service.pruneOperationLog(value as never, { before: '2020-01-01T00:00:00Z' }), valid: () => false },
    'pruneOperationLog(request)': { call: (value) => service.pruneOperationLog(as(actors.acmeAdmin), value as never), valid: (value) => value === undefined },
  };

  async function outcome(call: Call, value: unknown): Promise<unknown> {
    try {
      await call(value);
      return undefined;
    } catch (error) {
      return error;
    }
  }

  it('null and undefined', async () => {
    const untyped: string[] = [];
    for (const [name, { call, valid }] of Object.entries(calls)) {
      for (const value of [null, undefined]) {
        if (valid(value)) continue;
        const error = await outcome(call, value);
        if (!MemoryValidationError.isInstance(error) || error.field === '') untyped.push(`${name} with ${String(value)}: ${String(error)}`);
      }
    }
    expect(untyped).toEqual([]);
  });

  it('anything else', async () => {
    const before = JSON.stringify([await control().listBindings(), (await control().listActivity({ limit: 200 })).items.length, service.providers.list()]);
    for (const [name, { call, valid }] of Object.entries(calls)) {
      await fc.assert(
        fc.asyncProperty(garbage, async (value) => {
          fc.pre(!valid(value));
          const error = await outcome(call, value);
          // Typed: a memplane error (a validation error, or a refusal for a well-formed but foreign or unknown target).
          expect((error as { code?: unknown } | undefined)?.code, `${name} with ${JSON.stringify(value)}`).toMatch(/^MEMORY_(VALIDATION|SCOPE_VIOLATION|CONFIGURATION)$/);
        }),
        { numRuns: 60 },
      );
    }
    const after = JSON.stringify([await control().listBindings(), (await control().listActivity({ limit: 200 })).items.length, service.providers.list()]);
    expect(after).toBe(before);
  });
});
