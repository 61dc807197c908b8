import { identifierSchema, memoryScopeSchema, metadataSchema } from '@memplane/core';
import { z } from 'zod';
import type { MemoryHydrationLimits } from '../service/memory-service-settings';
import type { MemoryServiceScope } from '../runtime/runtime-requests';

/** `pre_run_hydrate`: recall context for an agent before its run. */
export interface PreRunHydrateInput {
  /** The agent about to run; resolution uses its override, else the company default. */
  agentId: string;
  /** What to recall for: the issue title and description, the wake reason. */
  query: string;
  /** The heartbeat run about to start. */
  heartbeatRunId?: string;
  /**
   * The issue the run works on. The hydration's operation is logged under it (and under the
   * agent), so the issue's history lists it; it never narrows what is recalled (`scope` does).
   */
  issueId?: string;
  /** The project of that issue, logged the same way. */
  projectId?: string;
  /**
   * The scope to recall from, inside the company. Default: the whole company (`{}`), since the
   * binding already is the agent's; pass `{ agentId }` to recall only the agent's own memories.
   */
  scope?: Omit<MemoryServiceScope, 'companyId'>;
  /** Caps for this run, over the service's defaults. */
  limits?: Partial<MemoryHydrationLimits>;
  /** The delivery timeout for this run, in milliseconds. */
  timeoutMs?: number;
}

/** `post_run_capture`: hand a finished run's output to the agent's binding. */
export interface PostRunCaptureInput {
  /** The agent that ran. */
  agentId: string;
  /** The heartbeat run. */
  heartbeatRunId: string;
  /** The issue the run worked on. */
  issueId?: string;
  /** The project. */
  projectId?: string;
  /** The run output: a summary or transcript excerpt, and/or the structured run object. */
  output: { text?: string; object?: Record<string, unknown>; mimeType?: string };
  /** Metadata stored with every record the capture produces. */
  metadata?: Record<string, unknown>;
}

/** `issue_comment_capture`: hand an issue comment to the binding (of its author agent, else the company). */
export interface IssueCommentCaptureInput {
  /** The issue. */
  issueId: string;
  /** The comment. */
  commentId: string;
  /** The comment body. */
  body: string;
  /** The agent that wrote it, when an agent did; resolution then uses its override. */
  authorAgentId?: string;
  /** The project. */
  projectId?: string;
  /** The heartbeat run that wrote it. */
  heartbeatRunId?: string;
  /** Metadata stored with every record the capture produces. */
  metadata?: Record<string, unknown>;
}

/** `issue_document_capture`: hand an issue document to the binding. */
export interface IssueDocumentCaptureInput {
  /** The issue. */
  issueId: string;
  /** The document key. */
  documentKey: string;
  /** The document text. */
  text?: string;
  /** The structured document. */
  object?: Record<string, unknown>;
  /** Its media type, such as `text/markdown`. */
  mimeType?: string;
  /** The agent that wrote it. */
  authorAgentId?: string;
  /** The project. */
  projectId?: string;
  /** Metadata stored with every record the capture produces. */
  metadata?: Record<string, unknown>;
}

/** `manual_capture`: a note or document someone handed to memory on purpose. Always on. */
export interface ManualCaptureInput {
  /** The text to remember. */
  text: string;
  /** The agent the memory belongs to; resolution then uses its override. */
  agentId?: string;
  /** The issue it is about. */
  issueId?: string;
  /** The project. */
  projectId?: string;
  /** `capture_record` (the default) stores the text as one record; `capture_residue` lets the provider extract. */
  mode?: 'capture_record' | 'capture_residue';
  /** `manual_note` (default) or `external_document` with `externalRef`. */
  externalRef?: string;
  /** Metadata stored with the records. */
  metadata?: Record<string, unknown>;
}

const limitsSchema = z.strictObject({
  maxSnippets: z.number().int().min(1).max(100).optional(),
  maxCharacters: z.number().int().min(1).max(1_000_000).optional(),
  maxSnippetCharacters: z.number().int().min(1).max(100_000).optional(),
});
const nonEmptyText = (maximum: number) =>
  z
    .string()
    .max(maximum)
    .refine((text) => text.trim() !== '', 'must not be empty');
const scopeWithoutCompany = memoryScopeSchema.omit({ companyId: true });

export const preRunHydrateInputSchema = z.strictObject({
  agentId: identifierSchema,
  query: nonEmptyText(10_000),
  heartbeatRunId: identifierSchema.optional(),
  issueId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
  scope: scopeWithoutCompany.optional(),
  limits: limitsSchema.optional(),
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
});

export const postRunCaptureInputSchema = z.strictObject({
  agentId: identifierSchema,
  heartbeatRunId: identifierSchema,
  issueId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
  output: z
    .strictObject({ text: z.string().max(1_000_000).optional(), object: metadataSchema.optional(), mimeType: z.string().min(1).max(255).optional() })
    .refine((output) => (output.text !== undefined && output.text.trim() !== '') || output.object !== undefined, {
      message: 'needs non-empty text or an object',
      path: ['text'],
    }),
  metadata: metadataSchema.optional(),
});

export const issueCommentCaptureInputSchema = z.strictObject({
  issueId: identifierSchema,
  commentId: identifierSchema,
  body: nonEmptyText(1_000_000),
  authorAgentId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
  heartbeatRunId: identifierSchema.optional(),
  metadata: metadataSchema.optional(),
});

export const issueDocumentCaptureInputSchema = z
  .strictObject({
    issueId: identifierSchema,
    documentKey: identifierSchema,
    text: z.string().max(1_000_000).optional(),
    object: metadataSchema.optional(),
    mimeType: z.string().min(1).max(255).optional(),
    authorAgentId: identifierSchema.optional(),
    projectId: identifierSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((input) => (input.text !== undefined && input.text.trim() !== '') || input.object !== undefined, {
    message: 'needs non-empty text or an object',
    path: ['text'],
  });

export const manualCaptureInputSchema = z.strictObject({
  text: nonEmptyText(100_000),
  agentId: identifierSchema.optional(),
  issueId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
  mode: z.enum(['capture_record', 'capture_residue']).optional(),
  externalRef: z.string().min(1).max(2048).optional(),
  metadata: metadataSchema.optional(),
});
