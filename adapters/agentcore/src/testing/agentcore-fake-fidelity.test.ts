import { ListMemoryRecordsCommand, RetrieveMemoryRecordsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { describe, expect, it } from 'vitest';
import { createAgentCoreAdapter } from '../agentcore-adapter';
import { setupAgentCoreTestEnvironment, testMemoryId } from './agentcore-test-environment';

/* The fake refuses what AgentCore documents it refuses; the sources are cited in agentcore-fake-filters.ts. */

const environment = setupAgentCoreTestEnvironment();
const equals = (metadataKey: string, value = 'v') => ({ left: { metadataKey }, operator: 'EQUALS_TO' as const, right: { metadataValue: { stringValue: value } } });

async function rejection(send: () => Promise<unknown>) {
  try {
    await send();
  } catch (error) {
    const sdkError = error as { name: string; message: string; $metadata: { httpStatusCode: number } };
    return { name: sdkError.name, status: sdkError.$metadata.httpStatusCode, message: sdkError.message };
  }
  throw new Error('expected a rejection');
}

describe('the fake AgentCore', () => {
  it('refuses a filter on a key the memory never declared, with a 400 ValidationException', async () => {
    const client = environment.createClient();
    const refused = await rejection(() => client.send(new ListMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', metadataFilters: [equals('priority')] })));
    expect(refused).toEqual({ name: 'ValidationException', status: 400, message: expect.stringMatching(/priority is not an indexed key/) });
    // The system timestamps need no declaration.
    const ok = await client.send(
      new ListMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', metadataFilters: [{ left: { metadataKey: 'x-amz-agentcore-memory-createdAt' }, operator: 'EXISTS' }] }),
    );
    expect(ok.memoryRecordSummaries).toEqual([]);
  });

  it('refuses more than 5 filters, and an empty filter list, on list and retrieve', async () => {
    const client = environment.createClient();
    const six = ['memplane.projectId', 'memplane.issueId', 'memplane.runId', 'memplane.subjectId', 'memplane.sessionKey', 'memplane.namespace'].map((key) => equals(key));
    for (const metadataFilters of [six, []]) {
      const listed = await rejection(() => client.send(new ListMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', metadataFilters })));
      expect(listed).toMatchObject({ name: 'ValidationException', status: 400 });
      const retrieved = await rejection(() =>
        client.send(new RetrieveMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', searchCriteria: { searchQuery: 'x', metadataFilters } })),
      );
      expect(retrieved).toMatchObject({ name: 'ValidationException', status: 400, message: expect.stringMatching(/1 to 5/) });
    }
  });

  it('returns 20 records per retrieve call by default, with a nextToken to the rest of topK', async () => {
    const adapter = environment.createAdapter();
    await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme' }, records: Array.from({ length: 30 }, (_, index) => ({ text: `deploy ${index}` })) });
    const client = environment.createClient();
    const first = await client.send(new RetrieveMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', searchCriteria: { searchQuery: 'deploy', topK: 30 } }));
    expect(first.memoryRecordSummaries).toHaveLength(20);
    expect(first.nextToken).toBeDefined();
    const second = await client.send(
      new RetrieveMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', searchCriteria: { searchQuery: 'deploy', topK: 30 }, nextToken: first.nextToken }),
    );
    expect(second.memoryRecordSummaries).toHaveLength(10);
    expect(second.nextToken).toBeUndefined();
    const defaultTopK = await client.send(new RetrieveMemoryRecordsCommand({ memoryId: testMemoryId, namespace: '/c/acme/', searchCriteria: { searchQuery: 'deploy' } }));
    expect(defaultTopK.memoryRecordSummaries).toHaveLength(10);
  });

  it('makes an adapter over a memory without indexed keys fail a filtered read with a non-retryable error, and never return unfiltered records', async () => {
    environment.fake.indexedKeys.clear();
    const adapter = createAgentCoreAdapter({ memoryId: testMemoryId, client: environment.createClient(), retry: { maxRetries: 2, initialDelayMs: 1 } });
    await adapter.upsertRecords({ bindingKey: 'default', scope: { companyId: 'acme', projectId: 'p1' }, records: [{ text: 'kept' }] });
    await expect(adapter.list({ bindingKey: 'default', scope: { companyId: 'acme', projectId: 'p1' } })).rejects.toMatchObject({
      code: 'MEMORY_API_CALL',
      isRetryable: false,
      statusCode: 400,
    });
    // A scope without metadata fields sends no filter and needs no declared key.
    const page = await adapter.list({ bindingKey: 'default', scope: { companyId: 'acme' } });
    expect(page.items.map((item) => item.text)).toEqual(['kept']);
  });
});
