import type { MemoryCaptureHookReport } from '@memplane/service';
import type { PluginEvent } from '@paperclipai/plugin-sdk';
import { readCommentThread } from './paperclip-comment-thread';
import { clearRunHydration } from './paperclip-run-hydration';
import { captureSettled, payloadText, present, systemContext, type PaperclipWorkerHost } from './paperclip-worker-host';

/**
 * `issue_comment_capture` on `issue.comment.created`. The event carries a ~120-character
 * snippet, so the full body is read with `ctx.issues.listComments`, and the comment is
 * attributed to the agent and run that wrote it (`authorAgentId`, `createdByRunId`). Captured once
 * per event id and per comment; a comment that `post_run_capture` already kept in its run's
 * output is not stored again.
 */
export async function captureComment(host: PaperclipWorkerHost, event: PluginEvent): Promise<void> {
  const { ctx, service } = host;
  const companyId = event.companyId;
  const commentId = payloadText(event, 'commentId');
  // The host's comment event is about the issue (`entityId`); its payload names no issue.
  const issueId = present(event.entityId) ?? payloadText(event, 'issueId');
  if (commentId === undefined || issueId === undefined) {
    ctx.logger.warn('memplane: issue.comment.created without commentId or issueId, not captured', { eventId: event.eventId });
    return;
  }
  await host.company(companyId);
  await host.ledger.once(companyId, [`event:${event.eventId}`], async () => {
    // The comment key is recorded only when the comment is stored, by this hook or in a run's output.
    const claim = await host.ledger.claim(companyId, [commentKey(commentId)]);
    try {
      // Stored already: settled. Held by a capture still running: not settled, a redelivery tries again.
      if (claim.held.size === 0) return claim.busy.size === 0;
      const comment = (await readCommentThread(ctx, issueId, companyId)).comment(commentId);
      if (comment === undefined) {
        // Never capture the snippet in place of the body: a later redelivery may find the comment.
        ctx.logger.warn('memplane: comment not found in its issue, not captured', { eventId: event.eventId, commentId });
        return false;
      }
      if (comment.body.trim() === '') return true;
      const issue = await ctx.issues.get(issueId, companyId);
      const authorAgentId = present(comment.authorAgentId);
      const runId = present(comment.createdByRunId);
      const projectId = present(issue?.projectId);
      const report = await service.hooks.issueCommentCapture(systemContext(companyId, runId), {
        issueId,
        commentId,
        body: comment.body,
        ...(authorAgentId === undefined ? {} : { authorAgentId }),
        ...(runId === undefined ? {} : { heartbeatRunId: runId }),
        ...(projectId === undefined ? {} : { projectId }),
        metadata: { paperclipEventId: event.eventId, ...(present(comment.authorUserId) === undefined ? {} : { authorUserId: comment.authorUserId }) },
      });
      if (captureStored(report)) await claim.record();
      return captureSettled(report);
    } finally {
      claim.release();
    }
  });
}

/**
 * `issue_document_capture` on `issue.document.created` and `.updated`: the document is read
 * with `ctx.issues.documents.get` and captured once per revision (and per event id). The
 * worker's own preamble document is never captured back into memory.
 */
export async function captureDocument(host: PaperclipWorkerHost, event: PluginEvent): Promise<void> {
  const { ctx, service } = host;
  const companyId = event.companyId;
  // The host's document event is about the issue (`entityId`); its payload names the document by key.
  const issueId = present(event.entityId) ?? payloadText(event, 'issueId');
  const key = payloadText(event, 'key') ?? payloadText(event, 'documentKey');
  if (issueId === undefined || key === undefined) {
    ctx.logger.warn('memplane: document event without issueId or key, not captured', { eventId: event.eventId });
    return;
  }
  const company = await host.company(companyId);
  if (key === company.hydration.issueDocumentKey) return;
  const document = await ctx.issues.documents.get(issueId, key, companyId);
  if (document === null) return;
  const revision = present(document.latestRevisionId) ?? `number-${document.latestRevisionNumber}`;
  await host.ledger.once(companyId, [`event:${event.eventId}`, `document:${issueId}:${key}:${revision}`], async () => {
    if (document.body.trim() === '') return true;
    const issue = await ctx.issues.get(issueId, companyId);
    const authorAgentId = present(document.updatedByAgentId) ?? present(document.createdByAgentId);
    const projectId = present(issue?.projectId);
    const report = await service.hooks.issueDocumentCapture(systemContext(companyId), {
      issueId,
      documentKey: key,
      text: document.body,
      mimeType: document.format === 'markdown' ? 'text/markdown' : 'text/plain',
      ...(authorAgentId === undefined ? {} : { authorAgentId }),
      ...(projectId === undefined ? {} : { projectId }),
      metadata: { paperclipEventId: event.eventId, revisionId: revision, revisionNumber: document.latestRevisionNumber },
    });
    return captureSettled(report);
  });
}

/**
 * `post_run_capture` on `agent.run.finished`, `.failed` and `.cancelled`. Paperclip's run
 * events carry no output, so what the run produced is what it wrote: the comments of its issue
 * created by the run, in the order it wrote them. They are captured as the run's output (once
 * per run), except the comments `issue_comment_capture` already stored, so a comment is kept
 * once whichever hook reaches it first; then the log is flushed and the run's hydration cache
 * is dropped.
 */
export async function captureRun(host: PaperclipWorkerHost, event: PluginEvent): Promise<void> {
  const { ctx, service } = host;
  const companyId = event.companyId;
  const runId = payloadText(event, 'runId') ?? present(event.entityId);
  const agentId = payloadText(event, 'agentId');
  if (runId === undefined || agentId === undefined) {
    ctx.logger.warn('memplane: run event without runId or agentId, not captured', { eventId: event.eventId });
    return;
  }
  await host.company(companyId);
  const issueId = payloadText(event, 'issueId');
  const status = payloadText(event, 'status') ?? event.eventType.slice('agent.run.'.length);
  await host.ledger.once(companyId, [`event:${event.eventId}`, `run:${runId}`], async () => {
    if (issueId === undefined) return true;
    const written = (await readCommentThread(ctx, issueId, companyId)).writtenByRun(runId);
    if (written.length === 0) return true;
    const claim = await host.ledger.claim(companyId, written.map((comment) => commentKey(comment.id)));
    try {
      const comments = written.filter((comment) => claim.held.has(commentKey(comment.id)));
      if (comments.length === 0) return true;
      const issue = await ctx.issues.get(issueId, companyId);
      const projectId = present(issue?.projectId);
      const keptBefore = written.filter((comment) => !claim.held.has(commentKey(comment.id))).map((comment) => comment.id);
      const report = await service.hooks.postRunCapture(systemContext(companyId, runId), {
        agentId,
        heartbeatRunId: runId,
        issueId,
        ...(projectId === undefined ? {} : { projectId }),
        output: {
          text: comments.map((comment) => comment.body).join('\n\n'),
          object: { status, commentIds: comments.map((comment) => comment.id), ...(keptBefore.length === 0 ? {} : { commentIdsCapturedBefore: keptBefore }) },
        },
        metadata: { paperclipEventId: event.eventId, runStatus: status },
      });
      if (captureStored(report)) await claim.record();
      return captureSettled(report);
    } finally {
      claim.release();
    }
  });
  await clearRunHydration(ctx, runId);
  await service.flush();
}

const commentKey = (commentId: string) => `comment:${commentId}`;

/** Whether a capture hook stored the text: its built-in delivery succeeded (not skipped, not failed). */
function captureStored(report: MemoryCaptureHookReport): boolean {
  return report.deliveries[0]?.status === 'succeeded';
}
