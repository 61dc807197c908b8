import { MemoryConfigurationError } from '@memplane/core';
import type { EmbeddingModel, LanguageModel } from 'ai';
import { z } from 'zod';
import type { StepRole } from '../pipeline/pipeline-step';

/**
 * A named LLM profile (§4.2): a model and how to call it. Steps reference profiles by name, so
 * models are configured once and every run log names the profile used. Any Vercel AI SDK
 * language or embedding model works (OpenAI, Anthropic, Bedrock, an OpenAI-compatible URL...).
 * Credentials stay in the model object the caller built: profiles never hold keys.
 */
export interface LlmProfile {
  /** The language model for extract, route, verify and summary steps. Absent: the rule-based path. */
  readonly model?: LanguageModel | undefined;
  /** The embedding model for vector recall. Absent: lexical recall alone. */
  readonly embeddingModel?: EmbeddingModel | undefined;
  /** Sampling temperature, 0 to 2. Default 0: extraction should be repeatable. */
  readonly temperature?: number | undefined;
  /** The token budget of one call's output. Default 1024. */
  readonly maxOutputTokens?: number | undefined;
  /** Milliseconds before one call is aborted. Default 30000. */
  readonly timeoutMs?: number | undefined;
  /** Retries of a failed call (the AI SDK's own backoff). Default 2. */
  readonly maxRetries?: number | undefined;
  /**
   * How structured answers are asked for: `object` uses the model's structured output (JSON
   * schema); `json-text` asks for JSON in plain text and parses it, for models without it. Default `object`.
   */
  readonly structuredOutput?: 'object' | 'json-text' | undefined;
  /**
   * The media the model reads as file parts (`preprocess_multimodal`): `image`, `audio`, `pdf`.
   * Default none: the engine cannot tell whether a model sees images or hears audio, and a model
   * that cannot would answer from nothing, so a kind is sent only when declared here.
   */
  readonly mediaInputs?: readonly MediaInputKind[] | undefined;
  /**
   * Whether a URI-only resource (https) may be handed to the model as a URL part, for the
   * provider to fetch. Default false. The engine itself never fetches a URI (no SSRF through it).
   */
  readonly mediaUrls?: boolean | undefined;
}

/** A media kind a profile's model reads. */
export type MediaInputKind = 'image' | 'audio' | 'pdf';

/** A profile with every default filled in. */
export interface ResolvedLlmProfile {
  readonly name: string;
  readonly model: LanguageModel | undefined;
  readonly embeddingModel: EmbeddingModel | undefined;
  readonly temperature: number;
  readonly maxOutputTokens: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly structuredOutput: 'object' | 'json-text';
  readonly mediaInputs: readonly MediaInputKind[];
  readonly mediaUrls: boolean;
}

/** The profiles of an engine: `default` is required. */
export type LlmProfiles = Readonly<Record<string, LlmProfile>> & { readonly default: LlmProfile };

const modelLike = z.custom<object>((value) => typeof value === 'string' || (typeof value === 'object' && value !== null), 'must be an AI SDK model');
const profileSchema = z.strictObject({
  model: modelLike.optional(),
  embeddingModel: modelLike.optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().min(1).max(200_000).optional(),
  timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  structuredOutput: z.enum(['object', 'json-text']).optional(),
  mediaInputs: z.array(z.enum(['image', 'audio', 'pdf'])).max(3).optional(),
  mediaUrls: z.boolean().optional(),
});
const profileNamePattern = /^[a-z][a-z0-9_-]{0,62}$/;

/** Checks the profiles and fills defaults; refuses a missing `default` or a bad setting by name. */
export function resolveProfiles(profiles: Readonly<Record<string, LlmProfile>> | undefined): Map<string, ResolvedLlmProfile> {
  const given = profiles ?? { default: {} };
  if (given.default === undefined) throw new MemoryConfigurationError({ message: 'Invalid profiles: the "default" profile is required.' });
  const resolved = new Map<string, ResolvedLlmProfile>();
  for (const [name, profile] of Object.entries(given)) {
    if (!profileNamePattern.test(name)) throw new MemoryConfigurationError({ message: `Invalid profiles: "${name}" must be lowercase letters, digits, - or _.` });
    const parsed = profileSchema.safeParse(profile);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new MemoryConfigurationError({ message: `Invalid profiles: ${name}.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}` });
    }
    resolved.set(name, {
      name,
      model: profile.model,
      embeddingModel: profile.embeddingModel,
      temperature: profile.temperature ?? 0,
      maxOutputTokens: profile.maxOutputTokens ?? 1024,
      timeoutMs: profile.timeoutMs ?? 30_000,
      maxRetries: profile.maxRetries ?? 2,
      structuredOutput: profile.structuredOutput ?? 'object',
      mediaInputs: [...new Set(profile.mediaInputs ?? [])],
      mediaUrls: profile.mediaUrls ?? false,
    });
  }
  return resolved;
}

/**
 * The profile a step uses (§4.2 precedence): the step's explicit `llmProfile` config, then the
 * role's default mapping, then `default`.
 */
export function profileNameFor(stepConfig: Readonly<Record<string, unknown>>, role: StepRole, roleProfiles: Readonly<Partial<Record<StepRole, string>>>): string {
  const explicit = stepConfig.llmProfile;
  if (typeof explicit === 'string') return explicit;
  return roleProfiles[role] ?? 'default';
}

/** A short description of a model for logs and service meta (never a key). */
export function describeModel(model: LanguageModel | EmbeddingModel | undefined): string {
  if (model === undefined) return 'none';
  if (typeof model === 'string') return model;
  const described = model as { provider?: unknown; modelId?: unknown };
  return `${String(described.provider ?? 'unknown')}:${String(described.modelId ?? 'unknown')}`;
}
