import { identifierSchema, metadataSchema } from '@memplane/core';
import { z } from 'zod';
import type { MemoryBindingHookSettings, MemoryBindingQuota } from '../bindings/memory-binding';

/** A binding key: 1 to 64 of letters, digits, `.`, `_` and `-`, starting with a letter or digit. */
export const bindingKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1 to 64 of A-Z, a-z, 0-9, ".", "_" and "-", starting with a letter or digit');

const hookSettingsSchema = z.strictObject({
  postRunCapture: z.boolean().optional(),
  issueCommentCapture: z.boolean().optional(),
  issueDocumentCapture: z.boolean().optional(),
});

/** Creates a binding in the caller's company. */
export interface CreateMemoryBindingInput {
  /** The stable key, unique in the company. */
  key: string;
  /** The provider id, such as `markdown`, `memory` or `mem0`. */
  providerId: string;
  /** The provider config, JSON, secrets as references. Default `{}`. */
  config?: Record<string, unknown>;
  /** Default true. */
  enabled?: boolean;
  /** Capture hooks to turn on. Default: all off. */
  hooks?: Partial<MemoryBindingHookSettings>;
  /** Caps on records and bytes. Default: none. */
  quota?: MemoryBindingQuota;
}

/** Changes a binding. Fields left out stay as they are. */
export interface UpdateMemoryBindingInput {
  /**
   * The key is immutable: a different key is refused with `MemoryValidationError` (field
   * `key`); the same key is accepted and changes nothing.
   */
  key?: string;
  /** A new provider; the adapter is rebuilt and the capabilities are read again. */
  providerId?: string;
  /** A new config, replacing the old one; the adapter is rebuilt when it differs. */
  config?: Record<string, unknown>;
  /** Enables or disables the binding. */
  enabled?: boolean;
  /** Capture hooks to turn on or off; unnamed ones stay. */
  hooks?: Partial<MemoryBindingHookSettings>;
  /** New caps, replacing the old ones; `null` removes every cap. */
  quota?: MemoryBindingQuota | null;
  /** Refuse the change with `MemoryConflictError` unless the binding is still at this revision. */
  expectedRevision?: number;
}

/** A target: the company default, or one agent's override. */
export type MemoryBindingTargetInput = { targetType: 'company' } | { targetType: 'agent'; agentId: string };

const quotaSchema = z
  .strictObject({
    maxRecords: z.number().int().min(0).max(1e12).optional(),
    maxBytes: z.number().int().min(0).max(1e15).optional(),
  })
  .refine((quota) => quota.maxRecords !== undefined || quota.maxBytes !== undefined, 'must set maxRecords or maxBytes');

export const createBindingInputSchema = z.strictObject({
  key: bindingKeySchema,
  providerId: z.string().min(1).max(64),
  config: metadataSchema.optional(),
  enabled: z.boolean().optional(),
  hooks: hookSettingsSchema.optional(),
  quota: quotaSchema.optional(),
});

export const updateBindingInputSchema = z.strictObject({
  key: bindingKeySchema.optional(),
  providerId: z.string().min(1).max(64).optional(),
  config: metadataSchema.optional(),
  enabled: z.boolean().optional(),
  hooks: hookSettingsSchema.optional(),
  quota: quotaSchema.nullable().optional(),
  expectedRevision: z.number().int().min(1).optional(),
});

export const targetInputSchema = z.discriminatedUnion('targetType', [
  z.strictObject({ targetType: z.literal('company') }),
  z.strictObject({ targetType: z.literal('agent'), agentId: identifierSchema }),
]);

/** A page of the activity log; `undefined` reads the first page, anything else that is not such an object is refused. */
export const activityRequestSchema = z
  .strictObject({ cursor: z.string().min(1).max(4096).optional(), limit: z.number().int().min(1).max(200).optional() })
  .optional();
