import { provider as markdownProvider } from '@memplane/markdown/provider';
import { provider as memoryProvider } from '@memplane/memory/provider';
import { createMemoryService, type MemoryService } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpBoundScope } from '../mcp-bound-scope';
import { createMemplaneMcpServer } from '../mcp-server';

/** A service on SQLite in memory where `acme` and `globex` each bind the given provider as their default. */
export async function createTwoCompanyService(providerId: 'memory' | 'markdown' = 'memory', dataDirectory?: string): Promise<MemoryService> {
  const service = await createMemoryService({
    store: createSqliteMemoryServiceStore({ filename: ':memory:' }),
    providers: [markdownProvider, memoryProvider],
    ...(dataDirectory === undefined ? {} : { dataDirectory }),
  });
  for (const companyId of ['acme', 'globex']) {
    const admin = service.control({ actor: { kind: 'company', companyId, userId: 'admin' } });
    await admin.createBinding({ key: 'default', providerId });
    await admin.setTarget({ targetType: 'company' }, 'default');
  }
  return service;
}

/** A real SDK client connected in process to a server bound to `scope`, with the binding's capabilities. */
export async function connectInProcess(service: MemoryService, scope: McpBoundScope, clientName = 'test-client'): Promise<Client> {
  const capabilities = (await service.control({ actor: { kind: 'system', component: 'test' }, companyId: scope.companyId }).resolve(scope.agentId)).binding
    .capabilities;
  const server = createMemplaneMcpServer({ service, scope, capabilities });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const [first] = (result as CallToolResult).content;
  return first?.type === 'text' ? first.text : '';
}
