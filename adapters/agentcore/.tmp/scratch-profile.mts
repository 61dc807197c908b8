import { BedrockAgentCoreClient, ListMemoryRecordsCommand, RetrieveMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { setupServer } from 'msw/node';
import { createAgentCoreAdapter } from '../src/agentcore-adapter';
import { createAgentCoreFakeHandlers } from '../src/agentcore-fake-handlers';
import { createAgentCoreFakeStore } from '../src/agentcore-fake-store';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const memoryId = 'memplane_bench-AbCdEf0123';
const fake = createAgentCoreFakeStore({ memoryId });
const server = setupServer(...createAgentCoreFakeHandlers(fake, { region: 'us-east-1' }));
server.listen({ onUnhandledRequest: 'error' });
const mk = () => new BedrockAgentCoreClient({ region: 'us-east-1', credentials: { accessKeyId: 'A', secretAccessKey: 'B' }, maxAttempts: 1 });
const adapter = createAgentCoreAdapter({ memoryId, client: mk() });
const client = mk();
const scope = { companyId: 'company-1', agentId: 'agent-1' };
await adapter.upsertRecords({ bindingKey: 'b', scope, source: { kind: 'issue_comment', companyId: 'company-1', issueId: 'i', commentId: 'c' }, records: Array.from({ length: 60 }, (_, i) => ({ text: `Record ${i}: the deploy window is Tuesday at 14:00 UTC, after the release checklist.`, metadata: { kind: 'fact', tags: ['deploy', 'schedule'], confidence: 0.9, index: i } })) });
const ns = '/c/company-1/a/agent-1/';
const variants: Record<string, () => Promise<unknown>> = {
  directList: () => client.send(new ListMemoryRecordsCommand({ memoryId, namespace: ns, maxResults: 50 })),
  adapterList: () => adapter.list({ bindingKey: 'b', scope, limit: 50 }),
  directQuery: () => client.send(new RetrieveMemoryRecordsCommand({ memoryId, namespace: ns, searchCriteria: { searchQuery: 'deploy window', topK: 10 } })),
  adapterQuery: () => adapter.query({ bindingKey: 'b', scope, query: 'deploy window', topK: 10 }),
};
const which = process.argv[2];
for (const [name, run] of Object.entries(variants)) {
  if (which && !name.toLowerCase().includes(which)) continue;
  for (let i = 0; i < 30; i++) await run();
  const cpu0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < 100; i++) await run();
  const cpu = process.cpuUsage(cpu0); const wall = performance.now() - t0;
  console.log(name, 'cpu µs/call', ((cpu.user + cpu.system) / 100).toFixed(0), 'wall µs/call', (wall * 10).toFixed(0));
}
server.close();
