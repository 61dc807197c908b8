import type { IssueComment, PluginContext } from '@paperclipai/plugin-sdk';

/**
 * When a comment was written, in milliseconds. The host sends dates over JSON-RPC as ISO
 * strings although the SDK types them as `Date`; an unreadable one sorts first.
 */
function writtenAt(comment: IssueComment): number {
  const time = new Date(comment.createdAt as unknown as string | Date).getTime();
  return Number.isNaN(time) ? 0 : time;
}

/** Oldest first, in writing order; the id breaks ties as the host does. */
const oldestFirst = (left: IssueComment, right: IssueComment) => writtenAt(left) - writtenAt(right) || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);

/**
 * The thread of an issue as the worker reads it. A real host's `listComments` returns every
 * comment of the issue, newest first, and the SDK can ask for neither one comment nor a page,
 * so each read is one call for the whole thread and nothing here assumes its order.
 */
export interface CommentThread {
  /** One comment by id, or undefined when the thread has none with that id. */
  comment(commentId: string): IssueComment | undefined;
  /** The comments a run wrote, with text, oldest first (the order the run wrote them). */
  writtenByRun(runId: string): IssueComment[];
}

/** Reads an issue's thread once (empty for an issue outside the company). */
export async function readCommentThread(ctx: PluginContext, issueId: string, companyId: string): Promise<CommentThread> {
  const comments = await ctx.issues.listComments(issueId, companyId);
  return {
    comment: (commentId) => comments.find((candidate) => candidate.id === commentId),
    writtenByRun: (runId) =>
      comments.filter((comment) => comment.createdByRunId === runId && typeof comment.body === 'string' && comment.body.trim() !== '').sort(oldestFirst),
  };
}
