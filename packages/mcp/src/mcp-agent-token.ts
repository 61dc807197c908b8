import type { MemplaneTokenRecord, MemplaneTokenStore } from '@memplane/host';
import type { McpBoundScope } from './mcp-bound-scope';

/** The scope an MCP session opened with a token is bound to, and the token's id (a session stays with its token). */
export type McpTokenScope = McpBoundScope & { tokenId: string };

/**
 * The scope of a token record: an agent token acts as its agent, in its company, bound to its
 * project when it has one. An operator or company-admin token is no agent, so it is refused
 * (undefined, which answers 401): an MCP session acts as one agent and nothing wider.
 */
export function mcpScopeOfToken(record: MemplaneTokenRecord): McpTokenScope | undefined {
  if (record.role !== 'agent') return undefined;
  return { tokenId: record.id, companyId: record.companyId, agentId: record.agentId, ...(record.projectId === undefined ? {} : { projectId: record.projectId }) };
}

/**
 * The `verifyToken` of `startMemplaneMcpHttpServer` over the host's token store (`openMemplaneHost`
 * of `@memplane/host`): the store is read on every call, so a token revoked by any process on the
 * same database is refused at its next request.
 */
export function agentTokenVerifier(tokens: Pick<MemplaneTokenStore, 'verify'>): (token: string) => Promise<McpTokenScope | undefined> {
  return async (token) => {
    const record = await tokens.verify(token);
    return record === undefined ? undefined : mcpScopeOfToken(record);
  };
}
