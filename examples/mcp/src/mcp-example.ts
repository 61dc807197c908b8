/**
 * memplane over MCP, end to end on this machine: the host (the service on SQLite and markdown
 * files in a data folder, and its token store), a bearer token issued for one agent, the
 * Streamable HTTP endpoint on 127.0.0.1, and the official MCP client calling the memory tools
 * as Claude or Cursor would.
 */
import { openMemplaneHost } from '@memplane/host';
import { agentTokenVerifier, startMemplaneMcpHttpServer } from '@memplane/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What the example saw, for the reader and for its test. */
export interface McpExampleReport {
  url: string;
  tools: string[];
  noted: string;
  found: string;
  afterForget: string;
  refused: string;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const [first] = result.content as Array<{ type: string; text?: string }>;
  return first?.text ?? '';
}

/** Runs the example in `dataDirectory` and returns what each step answered. */
export async function runMcpExample(dataDirectory: string): Promise<McpExampleReport> {
  // 1. The operator side: the service, and a token that acts as agent "planner" of company "acme".
  const host = await openMemplaneHost({ dataDirectory });
  const { token } = await host.tokens.issue({ role: 'agent', companyId: 'acme', agentId: 'planner' }, { label: 'example' });
  const http = await startMemplaneMcpHttpServer({
    service: host.service,
    verifyToken: agentTokenVerifier(host.tokens),
    prepareCompany: (companyId) => host.ensureDefaultBinding(companyId), // zero-config: markdown
    port: 0,
  });

  // 2. The agent side: any MCP client with the token. It never names a company or an agent.
  const client = new Client({ name: 'mcp-example', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const { tools } = await client.listTools();
    const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'The release train leaves every second Tuesday.', kind: 'decision' } });
    const [recordId] = (noted.structuredContent as { recordIds: string[] }).recordIds;
    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when does the release train leave?' } });
    const corrected = await client.callTool({ name: 'memory_correct', arguments: { recordId, text: 'The release train leaves every Tuesday.' } });
    const correctedId = (corrected.structuredContent as { recordId: string }).recordId;
    // A model that tries to reach another company is refused by the tool's strict schema.
    const refused = await client.callTool({ name: 'memory_search', arguments: { query: 'anything', companyId: 'globex' } });
    await client.callTool({ name: 'memory_forget', arguments: { recordIds: [recordId, correctedId] } });
    const afterForget = await client.callTool({ name: 'memory_search', arguments: { query: 'release train' } });
    return {
      url: http.url,
      tools: tools.map((tool) => tool.name),
      noted: textOf(noted),
      found: textOf(found),
      afterForget: textOf(afterForget),
      refused: textOf(refused),
    };
  } finally {
    await client.close();
    await http.close();
    await host.close();
  }
}
