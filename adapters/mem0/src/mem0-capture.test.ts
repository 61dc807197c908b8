import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { bodiesTo, createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake();
const testServer = setupTestServer(fake.handlers);
const scope = { companyId: 'capture-co', agentId: 'planner' };
const source = { kind: 'external_document' as const, companyId: 'capture-co', externalRef: 'https://docs.example.com/plan' };

describe('mem0 capture', () => {
  it('stores a capture_record as one memory at once, with its source and metadata', async () => {
    const adapter = createTestAdapter(fake);
    const result = await adapter.capture({ bindingKey: 'b', scope, source, mode: 'capture_record', payload: { text: 'The plan ships in May.' }, metadata: { doc: 'plan' } });
    expect(result.jobs).toBeUndefined();
    const [handle] = result.records ?? [];
    expect(await adapter.get(handle!, scope)).toMatchObject({ text: 'The plan ships in May.', source, metadata: { doc: 'plan' } });
  });

  it('says what it could not send as it was: an object payload, a non-text media type, payload metadata', async () => {
    const adapter = createTestAdapter(fake);
    const result = await adapter.capture({
      bindingKey: 'b',
      scope,
      source,
      payload: { object: { title: 'Plan', steps: ['draft', 'ship'] }, mimeType: 'application/json', metadata: { pages: 2 } },
    });
    expect(result.jobs?.[0]?.status).toBe('queued');
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'compatibility', feature: 'payload.mimeType' }),
      expect.objectContaining({ type: 'unsupported', feature: 'payload.metadata' }),
      expect.objectContaining({ type: 'compatibility', feature: 'payload.object' }),
    ]);
    const [add] = bodiesTo(testServer, 'POST', '/v3/memories/add/') as Array<{ messages: Array<{ content: string }> }>;
    expect(add?.messages[0]?.content).toBe('{"title":"Plan","steps":["draft","ship"]}');
  });

  it('sends residue as an assistant message when captureRole says so, so facts carry agent_id', async () => {
    const adapter = createTestAdapter(fake, { captureRole: 'assistant' });
    await adapter.capture({ bindingKey: 'b', scope: { companyId: 'role-co', agentId: 'planner' }, source: { kind: 'run', companyId: 'role-co' }, payload: { text: 'I will ship on Friday.' } });
    fake.drain();
    const facts = [...fake.store.memories.values()].filter((memory) => memory.app_id === 'role-co');
    expect(facts.map((memory) => [memory.user_id, memory.agent_id])).toEqual([[null, 'role-co~planner']]);
    expect((await adapter.list({ bindingKey: 'b', scope: { companyId: 'role-co', agentId: 'planner' } })).items.map((item) => item.text)).toEqual(['I will ship on Friday.']);
  });

  it('warns that mem0 ignores a query intent', async () => {
    const bundle = await createTestAdapter(fake).query({ bindingKey: 'b', scope, query: 'plan', intent: 'agent_preamble' });
    expect(bundle.warnings).toContainEqual(expect.objectContaining({ type: 'unsupported', feature: 'intent' }));
  });
});
