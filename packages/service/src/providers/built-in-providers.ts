import { isAbsolute, relative, resolve } from 'node:path';
import { MemoryValidationError } from '@memplane/core';
import { createMarkdownAdapter, type MarkdownAdapterSettings } from '@memplane/markdown';
import { createMemoryAdapter, type MemoryAdapterSettings } from '@memplane/memory';
import { z } from 'zod';
import type { MemoryProviderBuildContext, MemoryProviderFactory } from './memory-provider-factory';
import { secretReferenceSchema } from './secret-reference-schema';

/**
 * `memory`: the in-process reference adapter. Its records live as long as the adapter, so they
 * are lost when the process restarts or the binding's config changes (the adapter is rebuilt).
 */
export const memoryProviderFactory: MemoryProviderFactory = {
  providerId: 'memory',
  description: 'In-process reference adapter (@memplane/memory): every surface, nothing persisted.',
  configSchema: z.strictObject({
    timeoutMs: z.number().int().positive().max(600_000).optional(),
    extractionPollsToFinish: z.number().int().min(1).max(1000).optional(),
  }),
  // The config was validated against configSchema, so it has the settings' shape.
  create: (config) => createMemoryAdapter(config as MemoryAdapterSettings),
};

function markdownRoot(configured: unknown, context: MemoryProviderBuildContext): string {
  const refuse = (message: string): never => {
    throw new MemoryValidationError({ target: 'binding config', issues: [{ path: 'config.root', message }] });
  };
  if (configured === undefined) {
    return context.bindingDirectory ?? refuse('is required when the service has no dataDirectory');
  }
  if (typeof configured !== 'string') return refuse('must be a path');
  if (context.dataDirectory === undefined) {
    return isAbsolute(configured) ? configured : refuse('must be absolute when the service has no dataDirectory');
  }
  // A binding's files must stay under the service's data directory, so a company's config can
  // never point its provider at another company's folder.
  const root = resolve(context.dataDirectory, configured);
  const inside = relative(context.dataDirectory, root);
  if (inside.startsWith('..') || isAbsolute(inside)) return refuse('must stay inside the service dataDirectory');
  return root;
}

/**
 * `markdown`: the built-in local provider (@memplane/markdown), markdown files as the source of
 * truth with a derived SQLite index. `root` defaults to the binding's folder under the service's
 * `dataDirectory`; a relative `root` is resolved there and may not leave it.
 */
export const markdownProviderFactory: MemoryProviderFactory = {
  providerId: 'markdown',
  description: 'Local markdown files with a SQLite full-text index (@memplane/markdown).',
  configSchema: z.strictObject({
    root: z.string().min(1).max(4096).optional(),
    fusion: z.enum(['rrf', 'weighted']).optional(),
    sectionsPerFile: z.number().int().min(1).max(100_000).optional(),
    lockTimeoutMs: z.number().int().min(0).max(600_000).optional(),
    cursorSecret: secretReferenceSchema.optional(),
    lexicalWeights: z
      .strictObject({ body: z.number().min(0).optional(), context: z.number().min(0).optional(), metadata: z.number().min(0).optional() })
      .optional(),
  }),
  secretFields: ['cursorSecret'],
  create: (config, context) => {
    const { root, ...rest } = config;
    return createMarkdownAdapter({ ...(rest as Omit<MarkdownAdapterSettings, 'root'>), root: markdownRoot(root, context) });
  },
};

/** The providers every service has without registration. */
export const builtInProviderFactories: readonly MemoryProviderFactory[] = [memoryProviderFactory, markdownProviderFactory];
