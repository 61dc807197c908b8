import { z } from 'zod';
import { memoryOperationNames } from '../memory-adapter/v1/memory-adapter-v1';
import { metadataSchema } from './json-value-schema';
import { returnedScopeSchema } from './scope-schema';
import { memoryHookKindSchema, returnedSourceRefSchema } from './source-schema';
import { memoryUsageSchema, memoryWarningSchema } from './usage-schema';

const usageList = z.array(memoryUsageSchema).optional();
const warningList = z.array(memoryWarningSchema).optional();
const timestamp = z.string().optional();

/** A handle as a provider returns it: shape only, like the rest of a result. */
const memoryRecordHandleSchema = z.object({ providerKey: z.string(), providerRecordId: z.string() });

export const memorySnippetSchema = z.object({
  handle: memoryRecordHandleSchema,
  text: z.string(),
  score: z.number().optional(),
  rawScore: z.number().optional(),
  summary: z.string().optional(),
  source: returnedSourceRefSchema.optional(),
  metadata: metadataSchema.optional(),
  scope: returnedScopeSchema.optional(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const memoryExtractionJobSchema = z.object({
  providerJobId: z.string().min(1),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  hookKind: memoryHookKindSchema.optional(),
  source: returnedSourceRefSchema.optional(),
  error: z.string().optional(),
  submittedAt: timestamp,
  startedAt: timestamp,
  finishedAt: timestamp,
});

export const memoryCaptureResultSchema = z.object({
  records: z.array(memoryRecordHandleSchema).optional(),
  jobs: z.array(memoryExtractionJobSchema).optional(),
  usage: usageList,
  warnings: warningList,
});

export const memoryRecordWriteResultSchema = z.object({
  records: z.array(memoryRecordHandleSchema).optional(),
  failures: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        code: z.string().min(1),
        message: z.string(),
        isRetryable: z.boolean().optional(),
      }),
    )
    .optional(),
  usage: usageList,
  warnings: warningList,
});

export const memoryContextBundleSchema = z.object({
  snippets: z.array(memorySnippetSchema),
  profileSummary: z.string().optional(),
  usage: usageList,
  warnings: warningList,
});

/** A query result whose snippets are checked one by one on the fast path (`parseScopedSnippets`). */
export const memoryContextBundleShellSchema = memoryContextBundleSchema.extend({ snippets: z.array(z.unknown()) });

export const memoryListPageSchema = z.object({
  items: z.array(memorySnippetSchema),
  nextCursor: z.string().min(1).optional(),
  usage: usageList,
  warnings: warningList,
});

/** A list page whose items are checked one by one on the fast path (`parseScopedSnippets`). */
export const memoryListPageShellSchema = memoryListPageSchema.extend({ items: z.array(z.unknown()) });

export const nullableSnippetSchema = memorySnippetSchema.nullable();

export const memoryForgetResultSchema = z.object({ usage: usageList, warnings: warningList });

export const memoryCorrectionResultSchema = z.object({
  record: memoryRecordHandleSchema,
  supersedes: memoryRecordHandleSchema.optional(),
  usage: usageList,
  warnings: warningList,
});

export const memoryProfileSchema = z.object({
  summary: z.string(),
  items: z.array(memorySnippetSchema).optional(),
  usage: usageList,
  warnings: warningList,
});

export const memoryExtractionJobResultSchema = z.object({
  job: memoryExtractionJobSchema.nullable(),
  usage: usageList,
});

export const memoryExtractionJobPageSchema = z.object({
  items: z.array(memoryExtractionJobSchema),
  nextCursor: z.string().min(1).optional(),
  usage: usageList,
  warnings: warningList,
});

export const memoryExtractionRetryResultSchema = z.object({
  job: memoryExtractionJobSchema,
  usage: usageList,
  warnings: warningList,
});

export const memoryExplanationSchema = z.object({
  steps: z.array(
    z.object({
      handle: memoryRecordHandleSchema,
      stage: z.string().min(1),
      score: z.number().finite().optional(),
      details: z.string().optional(),
    }),
  ),
  usage: usageList,
});

export const memoryAdapterCapabilitiesSchema = z.strictObject({
  profile: z.boolean().optional(),
  correction: z.boolean().optional(),
  multimodal: z.boolean().optional(),
  providerManagedExtraction: z.boolean().optional(),
  asyncExtraction: z.boolean().optional(),
  providerNativeBrowse: z.boolean().optional(),
  listExtractionJobs: z.boolean().optional(),
  retryExtractionJob: z.boolean().optional(),
  explain: z.boolean().optional(),
  metadataFilter: z.boolean().optional(),
  remoteOperations: z.array(z.enum(memoryOperationNames)).optional(),
});
