import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MemoryConflictError,
  MemoryError,
  scopeMatches,
  type MemoryExtractionJob,
  type MemoryHookKind,
  type MemoryScope,
  type MemorySourceRef,
  type MemoryUsage,
} from '@memplane/core';
import { writeFileAtomically } from './markdown-atomic-write';
import type { MemoryExtractor } from './markdown-extractor';
import { createId } from './markdown-ids';
import { encodePathSegment, statePath } from './markdown-paths';
import { writeRecords } from './markdown-record-writer';
import type { MarkdownRepository } from './markdown-repository';
import { meetsKindThreshold } from '@memplane/rules';
import type { MarkdownVectorSearch } from './markdown-vector-search';

/** A job as its JSON file under `.memplane/jobs/<company>/` holds it. */
interface StoredJob extends MemoryExtractionJob {
  scope: MemoryScope;
  resourceId: string;
  metadata?: Record<string, unknown>;
  attempts: number;
  recordIds?: string[];
  usage?: MemoryUsage[];
  usageReported?: boolean;
}

const jobIdPattern = /^j_[a-z0-9]{10,40}$/;
/** A running job older than this is taken to have died with its process, and may be retried. */
const staleRunningMs = 10 * 60 * 1000;

/** What a capture hands to a new job. */
export interface JobSubmission {
  scope: MemoryScope;
  resourceId: string;
  source: MemorySourceRef;
  hookKind: MemoryHookKind | undefined;
  metadata: Record<string, unknown> | undefined;
}

function publicJob(job: StoredJob): MemoryExtractionJob {
  const { scope: _scope, resourceId: _resource, metadata: _metadata, attempts: _attempts, recordIds: _ids, usage: _usage, usageReported: _reported, ...rest } = job;
  return rest;
}

/**
 * Extraction jobs of an asynchronous extractor. Each job is a JSON file written atomically; jobs
 * run one at a time in this process, in submission order. `whenIdle` resolves when none is left.
 */
export class MarkdownExtractionJobs {
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly repository: MarkdownRepository,
    private readonly extractor: MemoryExtractor,
    private readonly now: () => string,
    private readonly vectors: MarkdownVectorSearch | undefined,
  ) {}

  /** Stores a queued job and schedules it. */
  submit(submission: JobSubmission): MemoryExtractionJob {
    const at = this.now();
    const job: StoredJob = {
      providerJobId: createId('j', Date.parse(at)),
      status: 'queued',
      scope: submission.scope,
      resourceId: submission.resourceId,
      source: submission.source,
      submittedAt: at,
      attempts: 1,
      ...(submission.hookKind === undefined ? {} : { hookKind: submission.hookKind }),
      ...(submission.metadata === undefined ? {} : { metadata: submission.metadata }),
    };
    this.save(job);
    this.schedule(job.providerJobId, job.scope.companyId);
    return publicJob(job);
  }

  /** A job of the scope, or undefined. Usage of a finished job is reported once, on the first read that sees it final. */
  get(id: string, scope: MemoryScope): { job: MemoryExtractionJob; usage?: MemoryUsage[] } | undefined {
    const job = this.load(id, scope.companyId);
    if (job === undefined || !scopeMatches(job.scope, scope)) return undefined;
    if (job.usage !== undefined && job.usageReported !== true && job.finishedAt !== undefined) {
      this.save({ ...job, usageReported: true });
      return { job: publicJob(job), usage: job.usage };
    }
    return { job: publicJob(job) };
  }

  /** The jobs of a scope after `afterId`, in id order. */
  list(scope: MemoryScope, afterId: string | undefined, limit: number): { jobs: MemoryExtractionJob[]; hasMore: boolean } {
    const folder = this.folder(scope.companyId);
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();
    } catch {
      return { jobs: [], hasMore: false };
    }
    const jobs: MemoryExtractionJob[] = [];
    for (const name of names) {
      const id = name.slice(0, -'.json'.length);
      if (afterId !== undefined && id <= afterId) continue;
      const job = this.load(id, scope.companyId);
      if (job === undefined || !scopeMatches(job.scope, scope)) continue;
      if (jobs.length === limit) return { jobs, hasMore: true };
      jobs.push(publicJob(job));
    }
    return { jobs, hasMore: false };
  }

  /** Queues a failed (or stale running) job again. Other jobs are refused with `MemoryConflictError`. */
  retry(id: string, scope: MemoryScope): MemoryExtractionJob | undefined {
    const job = this.load(id, scope.companyId);
    if (job === undefined || !scopeMatches(job.scope, scope)) return undefined;
    const stale = job.status === 'running' && Date.parse(this.now()) - Date.parse(job.startedAt ?? job.submittedAt ?? '') > staleRunningMs;
    if (job.status !== 'failed' && !stale) {
      throw new MemoryConflictError({ message: `Extraction job ${id} is ${job.status}; only failed jobs can be retried.` });
    }
    const { error: _error, startedAt: _started, finishedAt: _finished, ...rest } = job;
    const queued: StoredJob = { ...rest, status: 'queued', attempts: job.attempts + 1, usageReported: false };
    this.save(queued);
    this.schedule(id, scope.companyId);
    return publicJob(queued);
  }

  /** Resolves when every scheduled job has finished. */
  async whenIdle(): Promise<void> {
    while (this.pending > 0) await this.queue;
  }

  private schedule(id: string, companyId: string): void {
    this.pending += 1;
    this.queue = this.queue.then(async () => {
      try {
        await this.run(id, companyId);
      } finally {
        this.pending -= 1;
      }
    });
  }

  private async run(id: string, companyId: string): Promise<void> {
    const queued = this.load(id, companyId);
    if (queued === undefined || queued.status !== 'queued') return;
    const running: StoredJob = { ...queued, status: 'running', startedAt: this.now() };
    this.save(running);
    const extracted: string[] = [];
    try {
      const resource = this.repository.index.resource(running.resourceId);
      if (resource === undefined) throw new MemoryConflictError({ message: `The captured resource ${running.resourceId} is gone.` });
      const output = await this.extractor.extract({ text: resource.section.text, scope: running.scope, source: running.source as MemorySourceRef });
      const items = output.items.filter((item) => meetsKindThreshold(item.kind, item.confidence));
      extracted.push(...items.map((item) => item.text));
      const usage = [...(output.usage ?? []), ...((await this.vectors?.prepare(items.map((item) => item.text))) ?? [])];
      const at = this.now();
      const recordIds = this.repository.write(() => {
        // A forget that ran during the extraction may have cut sentences out of the resource (or
        // dropped it); items extracted from the old text would bring them back.
        if (this.repository.index.resource(running.resourceId)?.section.contentHash !== resource.section.contentHash) {
          throw new MemoryConflictError({ message: `The captured resource ${running.resourceId} changed while it was extracted (a forget); retry the job to extract from what is left.` });
        }
        const ids = writeRecords(this.repository, running.scope, items.map((item) => ({
          text: item.text,
          kind: item.kind,
          confidence: item.confidence,
          source: running.source as MemorySourceRef,
          evidence: [{ resourceId: running.resourceId, ...(item.quote === undefined ? {} : { quote: item.quote }) }],
          ...(item.expiresAt === undefined ? {} : { expiresAt: item.expiresAt }),
          ...(running.metadata === undefined ? {} : { metadata: running.metadata }),
        })), at);
        this.vectors?.storePrepared(ids);
        return ids;
      });
      this.save({ ...running, status: 'succeeded', finishedAt: this.now(), recordIds, ...(usage.length === 0 ? {} : { usage }) });
    } catch (error) {
      if (MemoryConflictError.isInstance(error) && extracted.length > 0) {
        // Embeddings of items that were not written must not stay behind in the cache.
        this.vectors?.forgetTexts(extracted);
      }
      const message = MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      this.save({ ...running, status: 'failed', finishedAt: this.now(), error: message || 'extraction failed' });
    }
  }

  private folder(companyId: string): string {
    return statePath(this.repository.options.root, 'jobs', encodePathSegment(companyId));
  }

  private load(id: string, companyId: string): StoredJob | undefined {
    if (!jobIdPattern.test(id)) return undefined;
    try {
      return JSON.parse(readFileSync(join(this.folder(companyId), `${id}.json`), 'utf8')) as StoredJob;
    } catch {
      return undefined;
    }
  }

  private save(job: StoredJob): void {
    const folder = this.folder(job.scope.companyId);
    mkdirSync(folder, { recursive: true });
    writeFileAtomically(join(folder, `${job.providerJobId}.json`), `${JSON.stringify(job, null, 2)}\n`);
  }
}
