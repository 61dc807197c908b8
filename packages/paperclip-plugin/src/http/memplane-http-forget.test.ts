import { describe, expect, it } from 'vitest';
import { createHttpMemoryService } from './memplane-http-service';
import { createHttpTransport, type HostFetch } from './memplane-http-transport';

const handles = [
  { providerKey: 'markdown', providerRecordId: 'kept-by-me' },
  { providerKey: 'markdown', providerRecordId: 'another-agents' },
  { providerKey: 'markdown', providerRecordId: 'never-written' },
];
const admin = { actor: { kind: 'company' as const, companyId: 'acme', userId: 'owner', role: 'admin' as const } };

/** The worker's HTTP client over a server that answers every call with `body` (no network). */
function clientAnswering(body: unknown) {
  const fetch: HostFetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:9', token: 'mps_test-token', timeoutMs: 5000, fetch });
  return createHttpMemoryService(transport, { warn: () => undefined }).runtime(admin);
}

const receipt = { operationId: 'op_1', bindingKey: 'default', providerId: 'markdown' };

describe('the HTTP client\'s forget', () => {
  it('passes on the server\'s forgotten', async () => {
    const forgotten = await clientAnswering({ ...receipt, forgotten: 0, warnings: [] }).forget({ handles });
    expect(forgotten.forgotten).toBe(0);
  });

  it('counts, from a server that does not report forgotten, only the handles no skip warning names', async () => {
    const answer = {
      ...receipt,
      warnings: [
        { type: 'scope_violation', providerRecordId: 'another-agents', details: 'not the caller\'s' },
        { type: 'not_found', providerRecordId: 'never-written' },
        { type: 'other', message: 'unrelated' },
      ],
    };
    const forgotten = await clientAnswering(answer).forget({ handles: [...handles, handles[0]!] });
    expect(forgotten).toMatchObject({ operationId: 'op_1', forgotten: 1 });
  });

  it('refuses a forgotten that is not a count, as a response that is not what the route returns', async () => {
    for (const forgotten of ['1', -1, 1.5, null]) {
      await expect(clientAnswering({ ...receipt, forgotten, warnings: [] }).forget({ handles })).rejects.toMatchObject({ code: 'MEMORY_INVALID_RESPONSE', field: 'forgotten' });
    }
  });
});
