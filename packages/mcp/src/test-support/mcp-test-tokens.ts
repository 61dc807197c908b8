import { createMemplaneTokenStore, openMemplaneHost, type MemplaneTokenIssueOptions, type MemplaneTokenStore } from '@memplane/host';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { agentTokenVerifier, type McpTokenScope } from '../mcp-agent-token';

/** Who an MCP token acts as. */
export interface AgentGrant {
  companyId: string;
  agentId: string;
  projectId?: string;
}

/** Issues an agent token in a data folder's token store, as `memplane token issue --agent` does, and closes the host again. */
export async function issueAgentToken(dataDirectory: string, grant: AgentGrant, options: MemplaneTokenIssueOptions = {}): Promise<{ token: string; tokenId: string }> {
  const host = await openMemplaneHost({ dataDirectory });
  try {
    const { token, record } = await host.tokens.issue({ role: 'agent', ...grant }, options);
    return { token, tokenId: record.id };
  } finally {
    await host.close();
  }
}

/** A token store of its own (an in-memory SQLite store's token table), for a server started without a host. */
export interface TestTokens {
  /** The store. */
  tokens: MemplaneTokenStore;
  /** Issues an agent token; resolves to the token and its record. */
  issue(grant: AgentGrant, options?: MemplaneTokenIssueOptions): Promise<{ token: string; record: { id: string } }>;
  /** The `verifyToken` of `startMemplaneMcpHttpServer` over the store. */
  verifyToken(token: string): Promise<McpTokenScope | undefined>;
  /** Closes the store. */
  close(): Promise<void>;
}

/** Opens {@link TestTokens}. */
export async function openTestTokens(): Promise<TestTokens> {
  const store = createSqliteMemoryServiceStore({ filename: ':memory:' });
  await store.migrate();
  const tokens = createMemplaneTokenStore(store);
  return {
    tokens,
    issue: (grant, options) => tokens.issue({ role: 'agent', ...grant }, options),
    verifyToken: agentTokenVerifier(tokens),
    close: () => store.close(),
  };
}
