import { BedrockAgentCoreClient, ListMemoryRecordsCommand, RetrieveMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { createAgentCoreAdapter } from '@memplane/agentcore';
import { callWithRetry } from '@memplane/core';
import { createAgentCoreFakeHandlers } from '../adapters/agentcore/src/testing/agentcore-fake-handlers';
import { agentCoreEndpoint } from '../adapters/agentcore/src/testing/agentcore-fake-responses';
import { createAgentCoreFakeStore } from '../adapters/agentcore/src/testing/agentcore-fake-store';
import type { Benchmark, BenchTable } from './bench-harness';
import { sharedCategories, type CodeCategory } from './cpu-profile-breakdown';
import { transportTables } from './hosted-adapter-tables';
import { serveProviderFake, type FakeTransport } from './provider-fake-transport';
import { replayAwsResponses, ResponseReplay } from './replayed-responses';

const region = 'us-east-1';
const memoryId = 'memplane_bench-AbCdEf0123';
const scope = { companyId: 'company-1', agentId: 'agent-1' };
const source = { kind: 'issue_comment' as const, companyId: 'company-1', issueId: 'issue-1', commentId: 'comment-1' };
const options = { rounds: 62, callsPerRound: 30, warmupCalls: 60 };
const transports: FakeTransport[] = ['loopback HTTP', 'replayed responses', 'msw interception'];
const categories: CodeCategory[] = [
  { name: '@memplane/agentcore', url: /\/adapters\/agentcore\/dist\// },
  { name: 'the SDK (@aws-sdk, @smithy)', url: /\/node_modules\/(@aws-sdk|@smithy|@aws-crypto)\// },
  ...sharedCategories,
];
const profiledCalls = 400;

function createClient(endpoint: string | undefined): BedrockAgentCoreClient {
  return new BedrockAgentCoreClient({
    region,
    credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench-secret' },
    maxAttempts: 1,
    ...(endpoint === undefined ? {} : { endpoint }),
  });
}

export const agentCoreOverheadBenchmark: Benchmark = {
  name: 'agentcore-overhead',
  description:
    'What `@memplane/agentcore` adds to query and list over calling `@aws-sdk/client-bedrock-agentcore` directly, on the same local fake of AgentCore, in paired rounds in one process.',
  async run() {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const figures: Record<string, unknown> = { ...options };
    const tables: BenchTable[] = [];
    for (const transport of transports) {
      const fake = createAgentCoreFakeStore({ memoryId });
      const origin = agentCoreEndpoint(region);
      const served = await serveProviderFake(transport, createAgentCoreFakeHandlers(fake, { region }), origin);
      try {
        const endpoint = transport === 'msw interception' ? undefined : served.url;
        const adapterClient = createClient(endpoint);
        const client = createClient(endpoint);
        if (transport === 'replayed responses') {
          // One recording for both clients, so the direct calls replay what the adapter's calls recorded.
          const replay = new ResponseReplay();
          replayAwsResponses(adapterClient, replay);
          replayAwsResponses(client, replay);
        }
        const adapter = createAgentCoreAdapter({ memoryId, client: adapterClient });
        // 60 records with provenance, like curated records written through the adapter.
        await adapter.upsertRecords({
          bindingKey: 'bench',
          scope,
          source,
          records: Array.from({ length: 60 }, (_, index) => ({
            text: `Record ${index}: the deploy window is Tuesday at 14:00 UTC, after the release checklist.`,
            metadata: { kind: 'fact', tags: ['deploy', 'schedule'], confidence: 0.9, index },
          })),
        });
        const namespace = '/c/company-1/a/agent-1/';
        const retrieve = () => new RetrieveMemoryRecordsCommand({ memoryId, namespace, searchCriteria: { searchQuery: 'deploy window', topK: 10 } });
        const list = () => new ListMemoryRecordsCommand({ memoryId, namespace, maxResults: 50 });
        const operations = {
          'query (topK 10)': { direct: () => client.send(retrieve()), adapter: () => adapter.query({ bindingKey: 'bench', scope, query: 'deploy window', topK: 10 }) },
          'list (limit 50)': { direct: () => client.send(list()), adapter: () => adapter.list({ bindingKey: 'bench', scope, limit: 50 }) },
        };
        const guarded = (send: (abortSignal: AbortSignal) => Promise<unknown>) => () => callWithRetry(send, { operation: 'AgentCore bench', timeoutMs: 30_000 });
        const guardedOperations = {
          'query (topK 10)': { direct: operations['query (topK 10)'].direct, adapter: guarded((abortSignal) => client.send(retrieve(), { abortSignal })) },
          'list (limit 50)': { direct: operations['list (limit 50)'].direct, adapter: guarded((abortSignal) => client.send(list(), { abortSignal })) },
        };
        tables.push(
          ...(await transportTables({
            subject: 'AgentCore fake',
            transport,
            operations,
            options,
            notes: [
              'Both variants send the same AgentCore request through the same SDK (SigV4 signing, serialisation, node:http) to the same stateful fake of AgentCore holding 60 records with provenance, so the overhead is what the adapter and `defineMemoryAdapter` add: request and result validation, scope encoding and checks, provenance decoding, cursor signing and usage.',
            ],
            categories,
            profiledCalls,
            figures,
            guardedOperations,
          })),
        );
      } finally {
        await served.close();
      }
    }
    return { figures, tables };
  },
};
