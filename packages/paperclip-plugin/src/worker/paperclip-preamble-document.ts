import type { PaperclipWorkerHost } from './paperclip-worker-host';

/** Where a run's preamble goes: the issue document the worker owns under the configured key. */
export interface PreambleDocumentTarget {
  issueId: string;
  companyId: string;
  key: string;
  /** The run's preamble; empty when nothing was recalled. */
  preamble: string;
  runId: string;
}

/**
 * Puts the run's preamble in the issue's preamble document, so an agent without plugin tools
 * can read it. A real Paperclip host refuses to update an existing document without the
 * revision it replaces (`baseRevisionId`), which the plugin SDK's `upsert` cannot pass, so an
 * existing preamble document is deleted and written again: the document is the preamble of the
 * latest run, not a history. An empty preamble removes the old one, so nothing recalled earlier
 * (and maybe forgotten since) stays on the issue. A document under the key that a user or
 * agent wrote is left alone and reported: the worker deletes only what it wrote.
 */
export async function refreshPreambleDocument(host: PaperclipWorkerHost, target: PreambleDocumentTarget): Promise<void> {
  const documents = host.ctx.issues.documents;
  const { issueId, companyId, key, preamble, runId } = target;
  const existing = await documents.get(issueId, key, companyId);
  if (existing !== null) {
    if (existing.body === preamble) return;
    if (existing.createdByAgentId != null || existing.createdByUserId != null) {
      host.ctx.logger.warn('memplane: the preamble document key names a document someone else wrote; left as it is', { issueId, key });
      return;
    }
    await documents.delete(issueId, key, companyId);
  }
  if (preamble === '') return;
  await documents.upsert({
    issueId,
    key,
    companyId,
    title: 'Remembered context (memplane)',
    format: 'markdown',
    body: preamble,
    changeSummary: `Recalled for run ${runId}`,
  });
}
