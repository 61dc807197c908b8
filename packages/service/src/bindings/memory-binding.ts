import type { MemoryAdapterCapabilities } from '@memplane/core';

/** What a binding target points from: the company as a whole, or one agent. */
export type MemoryBindingTargetType = 'company' | 'agent';

/**
 * Which automatic capture hooks write into a binding. Capture is opt-in per binding;
 * `manual_capture` is always on and `pre_run_hydrate` only reads.
 */
export interface MemoryBindingHookSettings {
  /** `post_run_capture`: capture each finished run's output. */
  postRunCapture: boolean;
  /** `issue_comment_capture`: capture issue comments handed to the hook. */
  issueCommentCapture: boolean;
  /** `issue_document_capture`: capture issue documents handed to the hook. */
  issueDocumentCapture: boolean;
}

/** Every capture hook off: the default of a new binding. */
export const noCaptureHooks: Readonly<MemoryBindingHookSettings> = Object.freeze({
  postRunCapture: false,
  issueCommentCapture: false,
  issueDocumentCapture: false,
});

/**
 * Caps of what a binding may hold, counted by the service: the records written through it
 * (`upsertRecords`, records a capture returns, superseding versions a correction returns) and
 * their bytes (UTF-8 text, summary and JSON metadata; a capture counts its payload). A write
 * that would pass a cap fails with `MemoryQuotaExceededError` before the provider is called.
 */
export interface MemoryBindingQuota {
  /** The most records. */
  maxRecords?: number;
  /** The most bytes. */
  maxBytes?: number;
}

/**
 * A company-scoped configuration that points at a provider. Agents, tools and hooks reach
 * providers through bindings, never by vendor name.
 */
export interface MemoryBinding {
  /** The service's id of the binding (`bnd_…`), stable across key changes. */
  id: string;
  /** The company that owns the binding. */
  companyId: string;
  /** The stable key inside the company, such as `default` or `mem0-prod`. Unique per company. */
  key: string;
  /** The provider id the factory is registered under, such as `markdown` or `mem0`. */
  providerId: string;
  /**
   * The provider configuration, JSON. Secrets in it are references (`{ $secret: { env } }` or
   * `{ $secret: { key } }`), never values; they are resolved when the adapter is built.
   */
  config: Record<string, unknown>;
  /** A disabled binding is skipped by resolution and refused by key. */
  enabled: boolean;
  /** Which automatic capture hooks write into this binding. */
  hooks: MemoryBindingHookSettings;
  /** Caps on records and bytes; absent means no cap. */
  quota?: MemoryBindingQuota;
  /** The adapter's capability manifest, read when the binding was created or its provider or config changed. */
  capabilities: MemoryAdapterCapabilities;
  /** Increases with every change; cached adapters are rebuilt when it moves. */
  revision: number;
  /** When the binding was created (ISO 8601). */
  createdAt: string;
  /** When the binding last changed (ISO 8601). */
  updatedAt: string;
}

/** Maps a company or an agent to a binding. An agent target overrides the company target. */
export interface MemoryBindingTarget {
  /** The company of the target and of the binding. */
  companyId: string;
  /** `company` for the company default, `agent` for an agent override. */
  targetType: MemoryBindingTargetType;
  /** The company id for a company target, the agent id for an agent target. */
  targetId: string;
  /** The binding the target points at. */
  bindingId: string;
  /** When the target was first set (ISO 8601). */
  createdAt: string;
  /** When the target last changed (ISO 8601). */
  updatedAt: string;
}

/** The outcome of resolution: the binding in effect and why. */
export interface ResolvedMemoryBinding {
  /** The binding in effect. */
  binding: MemoryBinding;
  /** `agent` when an agent override applied, `company` for the company default, `key` when the caller named the binding. */
  resolvedBy: 'agent' | 'company' | 'key';
}
