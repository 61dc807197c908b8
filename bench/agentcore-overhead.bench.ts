import { BedrockAgentCoreClient, ListMemoryRecordsCommand, RetrieveMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { agentCoreIndexedKeys, createAgentCoreAdapter } from '@memplane/agentcore';
import { createAgentCoreFakeHandlers } from '../adapters/agentcore/src/testing/agentcore-fake-handlers';
import { createAgentCoreFakeStore } from '../adapters/agentcore/src/testing/agentcore-fake-store';
import type { Benchmark } from './bench-harness';
import { budgetTable, interceptWithFake } from './hosted-adapter-budget';
import { replayAwsResponses, ResponseReplay } from './replayed-responses';

const region = 'us-east-1';
const memoryId = 'memplane_bench-AbCdEf0123';
const scope = { companyId: 'company-1', agentId: 'agent-1' };
const source = { kind: 'issue_comment' as const, companyId: 'company-1', issueId: 'issue-1', commentId: 'comment-1' };
const options = { rounds: 62, callsPerRound: 30, warmupCalls: 100 };

function createClient(): BedrockAgentCoreClient {
  return new BedrockAgentCoreClient({ region, credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench-secret' }, maxAttempts: 1 });
}

export const agentCoreOverheadBenchmark: Benchmark = {
  name: 'agentcore-overhead',
  description:
    "The CPU `@memplane/agentcore` adds per query and list over calling `@aws-sdk/client-bedrock-agentcore` directly, on replayed AgentCore responses, against the hosted adapters' budget (≤ 250 µs for a query of 10, ≤ 600 µs for a list of 50).",
  async run() {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const figures: Record<string, unknown> = { ...options };
    const fake = createAgentCoreFakeStore({ memoryId, indexedKeys: agentCoreIndexedKeys.map((key) => ({ key, type: 'STRING' })) });
    const intercepted = await interceptWithFake(createAgentCoreFakeHandlers(fake, { region }));
    try {
      const adapterClient = createClient();
      const client = createClient();
      // One recording for both clients, so the direct calls replay what the adapter's calls recorded.
      const replay = new ResponseReplay();
      replayAwsResponses(adapterClient, replay);
      replayAwsResponses(client, replay);
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
      // The direct calls send exactly what the adapter sends, so both replay the same bytes.
      const retrieve = () => new RetrieveMemoryRecordsCommand({ memoryId, namespace, searchCriteria: { searchQuery: 'deploy window', topK: 10 }, maxResults: 10 });
      const list = () => new ListMemoryRecordsCommand({ memoryId, namespace, maxResults: 50 });
      const table = await budgetTable(
        "AgentCore: the adapter's own CPU per call against the budget",
        {
          'query (topK 10)': { direct: () => client.send(retrieve()), adapter: () => adapter.query({ bindingKey: 'bench', scope, query: 'deploy window', topK: 10 }) },
          'list (limit 50)': { direct: () => client.send(list()), adapter: () => adapter.list({ bindingKey: 'bench', scope, limit: 50 }) },
        },
        options,
        figures,
        [
          'Both variants send the same AgentCore request through the same SDK (SigV4 signing, serialisation) and read the same recorded response of the stateful AgentCore fake holding 60 records with provenance. The adapter adds request and result validation, scope encoding and the per-record scope check, provenance decoding, the signed cursor, usage, and the timeout and abort of each call.',
        ],
      );
      figures.recordedRequests = replay.size;
      return { figures, tables: [table] };
    } finally {
      intercepted.close();
    }
  },
};
