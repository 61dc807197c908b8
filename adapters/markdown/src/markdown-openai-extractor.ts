import { MemoryInvalidResponseError, parseInput, type MemoryUsage } from '@memplane/core';
import { z } from 'zod';
import type { ExtractedItem, MemoryExtractor } from './markdown-extractor';
import { postOpenAICompatible, type OpenAICompatibleConnection } from './markdown-openai-http';
import { markdownAdapterKey } from './markdown-snippet';
import { kindConfidenceThresholds, memoryKinds } from '@memplane/rules';

/** Settings of {@link createOpenAICompatibleExtractor}. */
export interface OpenAICompatibleExtractorSettings extends OpenAICompatibleConnection {
  /** The chat model, such as `gpt-4o-mini` or `llama3.1`. */
  model: string;
  /** Sampling temperature. Default 0. */
  temperature?: number;
  /** Who bills for the calls, reported as usage `biller`. Default `openai-compatible`. */
  biller?: string;
}

const settingsSchema = z.object({
  baseURL: z.url(),
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).optional(),
  biller: z.string().min(1).optional(),
});

/** The JSON schema the model must answer with (OpenAI structured outputs, strict). */
export const extractionJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'text', 'confidence', 'quote', 'expires_at'],
        properties: {
          kind: { type: 'string', enum: [...memoryKinds] },
          text: { type: 'string' },
          confidence: { type: 'number' },
          quote: { type: 'string' },
          expires_at: { type: ['string', 'null'] },
        },
      },
    },
  },
} as const;

const itemsSchema = z.object({
  items: z.array(
    z.object({
      kind: z.enum(memoryKinds),
      text: z.string().min(1),
      confidence: z.number().min(0).max(1),
      quote: z.string().optional(),
      expires_at: z.string().nullable().optional(),
    }),
  ),
});

const responseSchema = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
  usage: z
    .object({
      prompt_tokens: z.number().optional(),
      completion_tokens: z.number().optional(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().optional() }).passthrough().optional(),
    })
    .passthrough()
    .optional(),
});

/** The system prompt: the taxonomy, its thresholds, and how to phrase items. */
export const extractionSystemPrompt = [
  'You extract durable memories from text for an AI agent memory store.',
  'Return JSON {"items":[...]} where each item has: kind, text (one self-contained statement), confidence (0 to 1), quote (the supporting passage, verbatim), expires_at (ISO 8601 for todo items with a deadline, otherwise null).',
  'Kinds and the minimum confidence to report them:',
  ...memoryKinds.map((kind) => `- ${kind}: ${kindConfidenceThresholds[kind]}`),
  'Skip small talk. Never invent facts that the text does not state.',
].join('\n');

/**
 * An LLM extractor for any server that speaks OpenAI's `POST /chat/completions` with structured
 * JSON output. It runs as extraction jobs (mode `async`). Usage reports input, cached input and
 * output tokens from the response's `usage`, with `raw` set to it.
 */
export function createOpenAICompatibleExtractor(settings: OpenAICompatibleExtractorSettings): MemoryExtractor {
  const valid = parseInput(settingsSchema, settings, 'OpenAI-compatible extractor settings', 'settings');
  const connection: OpenAICompatibleConnection = { ...settings, baseURL: valid.baseURL };
  return {
    name: `llm:${valid.model}`,
    mode: 'async',
    async extract(input, options = {}) {
      const response = await postOpenAICompatible(
        connection,
        '/chat/completions',
        {
          model: valid.model,
          temperature: valid.temperature ?? 0,
          messages: [
            { role: 'system', content: extractionSystemPrompt },
            { role: 'user', content: input.text },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'memory_items', strict: true, schema: extractionJsonSchema } },
        },
        responseSchema,
        `chat completions (${valid.model})`,
        options.signal,
      );
      const content = response.choices[0]?.message.content ?? '';
      let parsed: unknown;
      try {
        parsed = JSON.parse(content);
      } catch (cause) {
        throw new MemoryInvalidResponseError({ message: `The extraction model answered with content that is not JSON.`, cause });
      }
      const output = itemsSchema.safeParse(parsed);
      if (!output.success) {
        throw new MemoryInvalidResponseError({ message: 'The extraction model answered with JSON that does not match the item schema.', cause: output.error });
      }
      const items: ExtractedItem[] = output.data.items.map((item) => ({
        kind: item.kind,
        text: item.text,
        confidence: item.confidence,
        ...(item.quote === undefined || item.quote === '' ? {} : { quote: item.quote }),
        ...(typeof item.expires_at === 'string' && !Number.isNaN(Date.parse(item.expires_at)) ? { expiresAt: new Date(item.expires_at).toISOString() } : {}),
      }));
      const reported = response.usage;
      const usage: MemoryUsage = {
        provider: markdownAdapterKey,
        biller: valid.biller ?? 'openai-compatible',
        model: response.model ?? valid.model,
        billingType: 'metered_api',
        ...(reported === undefined
          ? {}
          : {
              ...(reported.prompt_tokens === undefined ? {} : { inputTokens: reported.prompt_tokens }),
              ...(reported.completion_tokens === undefined ? {} : { outputTokens: reported.completion_tokens }),
              ...(reported.prompt_tokens_details?.cached_tokens === undefined ? {} : { cachedInputTokens: reported.prompt_tokens_details.cached_tokens }),
              raw: reported,
            }),
      };
      return { items, usage: [usage] };
    },
  };
}
