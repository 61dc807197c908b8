import { BedrockAgentCoreClient, GetMemoryRecordCommand } from '@aws-sdk/client-bedrock-agentcore';
import { describe, expect, it } from 'vitest';
import { replayAwsResponses, replayingFetch, ResponseReplay } from './replayed-responses';

describe('replayingFetch', () => {
  it('sends each distinct request once and answers repeats with the recorded bytes', async () => {
    const sent: string[] = [];
    const realFetch: typeof fetch = async (input, init) => {
      sent.push(`${init?.method} ${String(input)} ${String(init?.body)}`);
      return new Response(JSON.stringify({ call: sent.length }), { status: 201, headers: { 'x-call': String(sent.length) } });
    };
    const replay = new ResponseReplay();
    const replaying = replayingFetch(realFetch, replay);
    const search = { method: 'POST', body: '{"q":"deploy"}' };
    const first = await replaying('http://127.0.0.1:1/search', search);
    const again = await replaying('http://127.0.0.1:1/search', search);
    const other = await replaying('http://127.0.0.1:1/search', { method: 'POST', body: '{"q":"review"}' });
    expect(sent).toHaveLength(2);
    expect(replay.size).toBe(2);
    expect(await first.json()).toEqual({ call: 1 });
    expect(again.status).toBe(201);
    expect(again.headers.get('x-call')).toBe('1');
    expect(await again.json()).toEqual({ call: 1 });
    expect(await other.json()).toEqual({ call: 2 });
  });

  it('refuses a body it cannot key without consuming it', async () => {
    const replaying = replayingFetch(async () => new Response('{}'));
    await expect(replaying('http://127.0.0.1:1/', { method: 'POST', body: new URLSearchParams('a=1') })).rejects.toThrow(TypeError);
  });
});

describe('replayAwsResponses', () => {
  it('lets the SDK deserialise a recorded response, with one request sent per distinct call', async () => {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    let handled = 0;
    const record = { memoryRecordId: 'mem-1', content: { text: 'Deploys on Tuesday' }, memoryStrategyId: 'strategy-1', namespaces: ['/c/c1/'], createdAt: 1_700_000_000 };
    const client = new BedrockAgentCoreClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
      maxAttempts: 1,
      requestHandler: {
        handle: async () => {
          handled += 1;
          const body = new TextEncoder().encode(JSON.stringify({ memoryRecord: record }));
          return { response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body } };
        },
      },
    });
    replayAwsResponses(client);
    const command = new GetMemoryRecordCommand({ memoryId: 'memory-1', memoryRecordId: 'mem-1' });
    const first = await client.send(command);
    const again = await client.send(command);
    expect(handled).toBe(1);
    expect(again.memoryRecord?.content?.text).toBe('Deploys on Tuesday');
    expect(again.memoryRecord).toEqual(first.memoryRecord);
    await client.send(new GetMemoryRecordCommand({ memoryId: 'memory-1', memoryRecordId: 'mem-2' }));
    expect(handled).toBe(2);
  });
});
