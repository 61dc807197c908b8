import type { MarkdownAdapterSettings } from '@memplane/markdown';
import { createMemoryAdapter, type MemoryAdapterSettings } from '@memplane/memory';
import { z } from 'zod';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { isMissingPackage, MemoryMissingPackageError } from '../errors/memory-missing-package-error';
import { confinePath } from '../security/confined-path';
import type { MemoryProviderBuildContext, MemoryProviderFactory } from './memory-provider-factory';
import { secretReferenceSchema } from '@memplane/core';

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
  configExample: { timeoutMs: 30_000 },
  // The config was validated against configSchema, so it has the settings' shape.
  create: (config) => createMemoryAdapter(config as MemoryAdapterSettings),
};

function markdownRoot(configured: unknown, context: MemoryProviderBuildContext): string {
  const refuse = (message: string): never => {
    throw new MemoryBindingRefusedError({ rule: 'markdown.root', companyId: context.companyId, field: 'config.root', message });
  };
  if (context.companyDirectory === undefined) {
    return refuse("needs the service's dataDirectory: markdown files live in the company's folder under it");
  }
  if (configured !== undefined && typeof configured !== 'string') return refuse('must be a path');
  // The company's folder, never the data directory: one company's config can never reach
  // another company's files, through `..`, an absolute path or a symbolic link.
  const confined = confinePath(context.companyDirectory, configured ?? context.bindingDirectory ?? context.companyDirectory);
  return 'path' in confined ? confined.path : refuse(confined.refused);
}

/**
 * `markdown`: the built-in local provider (@memplane/markdown), markdown files as the source of
 * truth with a derived SQLite index. It needs the service's `dataDirectory`. `root` defaults to
 * the binding's folder; a relative `root` is resolved in the company's folder
 * (`<dataDirectory>/markdown/<company>`), and no `root` may leave that folder, lexically or
 * through a symbolic link (`MemoryBindingRefusedError`, rule `markdown.root`).
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
  // No cursorSecret: a reference works only once the operator lets the company read the variable.
  configExample: { fusion: 'rrf' },
  checkConfig: (config, context) => {
    markdownRoot(config.root, context);
  },
  create: async (config, context) => {
    const { root, ...rest } = config;
    const settings = { ...(rest as Omit<MarkdownAdapterSettings, 'root'>), root: markdownRoot(root, context) };
    const { createMarkdownAdapter } = await importMarkdownPackage();
    return createMarkdownAdapter(settings);
  },
};

/**
 * `@memplane/markdown` is an optional peer dependency (it brings better-sqlite3, which compiles
 * native code), loaded when a markdown binding is first built. Not installed, the binding
 * fails with `MemoryMissingPackageError` naming it.
 */
export async function importMarkdownPackage(
  load: (packageName: string) => Promise<unknown> = (packageName) => import(packageName),
): Promise<typeof import('@memplane/markdown')> {
  try {
    return (await load('@memplane/markdown')) as typeof import('@memplane/markdown');
  } catch (cause) {
    if (isMissingPackage(cause, '@memplane/markdown')) {
      throw new MemoryMissingPackageError({ packageName: '@memplane/markdown', feature: 'The built-in markdown provider', cause });
    }
    throw cause;
  }
}

/** The providers every service has without registration. */
export const builtInProviderFactories: readonly MemoryProviderFactory[] = [memoryProviderFactory, markdownProviderFactory];
