import type { IssueComment } from '@paperclipai/plugin-sdk';
import type { TestHarness } from '@paperclipai/plugin-sdk/testing';

/** The message a real Paperclip host (2026.916.1, `services/documents.js`) refuses an update without a base revision with. */
export const baseRevisionRequired =
  'Document update requires baseRevisionId. GET the current document, read its body and latestRevisionId, then set baseRevisionId to that latestRevisionId when updating.';

/** A document write as the host's REST API takes it: an update names the revision it replaces. */
export type HostDocumentWrite = Parameters<TestHarness['ctx']['issues']['documents']['upsert']>[0] & { baseRevisionId?: string };

type IssueDocument = Awaited<ReturnType<TestHarness['ctx']['issues']['documents']['upsert']>>;

const createdAtOf = (comment: IssueComment) => new Date(comment.createdAt as unknown as string | Date).getTime();

/**
 * Makes the SDK's fake host behave as a real Paperclip host does where the two differ:
 * - `issues.listComments` returns the whole thread newest first (the host's default order, no
 *   limit), with dates as the JSON-RPC wire carries them (ISO strings);
 * - `issues.documents.upsert` of an existing document without its latest revision as
 *   `baseRevisionId` throws the host's conflict (the SDK's `upsert` cannot pass one, paperclipai/paperclip#12015).
 * Returns the host's own document write, for a test acting as a user who passes the base revision.
 */
export function behaveLikeRealHost(harness: TestHarness): { writeDocumentAsUser(input: HostDocumentWrite): Promise<IssueDocument> } {
  const issues = harness.ctx.issues;
  const listComments = issues.listComments.bind(issues);
  issues.listComments = async (issueId, companyId) => {
    const thread = await listComments(issueId, companyId);
    const newestFirst = [...thread].sort((left, right) => createdAtOf(right) - createdAtOf(left) || (left.id < right.id ? 1 : left.id > right.id ? -1 : 0));
    return JSON.parse(JSON.stringify(newestFirst)) as IssueComment[];
  };
  const documents = issues.documents;
  const get = documents.get.bind(documents);
  const upsert = documents.upsert.bind(documents);
  const write = async (input: HostDocumentWrite): Promise<IssueDocument> => {
    const existing = await get(input.issueId, input.key, input.companyId);
    if (existing !== null) {
      if (input.baseRevisionId === undefined) throw new Error(baseRevisionRequired);
      if (input.baseRevisionId !== existing.latestRevisionId) throw new Error('Document was updated by someone else');
    }
    const { baseRevisionId: _base, ...sdkInput } = input;
    return upsert(sdkInput);
  };
  documents.upsert = (input) => write(input);
  return { writeDocumentAsUser: write };
}
