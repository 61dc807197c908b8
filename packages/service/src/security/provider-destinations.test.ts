import { describe, expect, it } from 'vitest';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { createDestinationCheck, isPrivateHost } from './provider-destinations';

// What the hosted providers' descriptions declare (`destination.officialEndpoints`), by provider id.
const officialEndpoints: Record<string, readonly string[]> = {
  mem0: ['https://api.mem0.ai'],
  supermemory: ['https://api.supermemory.ai'],
  agentcore: ['https://bedrock-agentcore.*.amazonaws.com', 'https://bedrock-agentcore-fips.*.amazonaws.com', 'https://bedrock-agentcore.*.amazonaws.com.cn'],
};
const officialEndpointsOf = (providerId: string) => officialEndpoints[providerId];

const refusal = (check: ReturnType<typeof createDestinationCheck>, providerId: string, url: unknown): unknown => {
  try {
    check({ providerId, companyId: 'acme', field: 'config.baseURL', url });
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('provider destinations', () => {
  it('allows each provider the official endpoints its description declares by default, and nothing else', () => {
    const check = createDestinationCheck({}, officialEndpointsOf);
    for (const [providerId, url] of [
      ['mem0', 'https://api.mem0.ai'],
      ['mem0', 'https://api.mem0.ai/'],
      ['supermemory', 'https://api.supermemory.ai'],
      ['agentcore', 'https://bedrock-agentcore.us-east-1.amazonaws.com'],
      ['agentcore', 'https://bedrock-agentcore-fips.us-gov-west-1.amazonaws.com'],
      ['agentcore', 'https://bedrock-agentcore.cn-north-1.amazonaws.com.cn'],
    ]) {
      expect(refusal(check, providerId!, url), `${providerId} ${url}`).toBeUndefined();
    }
    for (const [providerId, url] of [
      ['mem0', 'http://api.mem0.ai'],
      ['mem0', 'https://api.mem0.ai.evil.example'],
      ['mem0', 'https://evil.example/api.mem0.ai'],
      ['mem0', 'https://user:pass@api.mem0.ai'],
      ['mem0', 'https://api.mem0.ai:8443'],
      ['mem0', 'https://api.supermemory.ai'],
      ['agentcore', 'https://bedrock-agentcore.us-east-1.evil.amazonaws.com'],
      ['agentcore', 'https://bedrock-agentcore..amazonaws.com'],
      ['acme-kb', 'https://kb.example.com'],
      ['mem0', 'not a url'],
      ['mem0', { $secret: { env: 'URL' } }],
    ] as Array<[string, unknown]>) {
      const error = refusal(check, providerId, url);
      expect(MemoryBindingRefusedError.isInstance(error), `${providerId} ${JSON.stringify(url)}`).toBe(true);
      expect(error).toMatchObject({ rule: 'destination', field: 'config.baseURL' });
    }
  });

  it('refuses loopback and private addresses unless the operator opts in, even when allow-listed', () => {
    const hosts = ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '[::1]', '[::ffff:127.0.0.1]', 'localhost', 'db.localhost', '10.0.0.5', '172.20.1.1', '192.168.1.10', '169.254.169.254', '[fd00::1]', '[fe80::1]', '0.0.0.0', 'intranet'];
    for (const host of hosts) {
      const url = `http://${host}:8080`;
      expect(isPrivateHost(new URL(url).hostname), host).toBe(true);
      const allowListed = createDestinationCheck({ endpoints: { mem0: [url] } });
      expect(refusal(allowListed, 'mem0', url), host).toMatchObject({ rule: 'destination' });
      expect(refusal(createDestinationCheck({ endpoints: { mem0: [url] }, allowPrivateNetworks: true }), 'mem0', url), host).toBeUndefined();
    }
    expect(isPrivateHost('api.mem0.ai')).toBe(false);
    expect(isPrivateHost('8.8.8.8')).toBe(false);
  });

  it('matches operator entries by scheme, host, port and path prefix; naming a provider replaces its defaults', () => {
    const check = createDestinationCheck({ endpoints: { mem0: ['https://mem0.proxy.example.com/tenant-a'] } }, officialEndpointsOf);
    expect(refusal(check, 'mem0', 'https://mem0.proxy.example.com/tenant-a/v1')).toBeUndefined();
    expect(refusal(check, 'mem0', 'https://mem0.proxy.example.com/tenant-ab')).toMatchObject({ rule: 'destination' });
    expect(refusal(check, 'mem0', 'https://api.mem0.ai')).toMatchObject({ rule: 'destination' });
    expect(refusal(check, 'supermemory', 'https://api.supermemory.ai')).toBeUndefined();
  });

  it('reads the official endpoints at each check, so a provider registered or replaced later is held to its own list', () => {
    const registered = new Map<string, readonly string[]>();
    const check = createDestinationCheck({}, (providerId) => registered.get(providerId));
    expect(refusal(check, 'acme-kb', 'https://kb.acme.example')).toMatchObject({ rule: 'destination' });
    registered.set('acme-kb', ['https://kb.acme.example']);
    expect(refusal(check, 'acme-kb', 'https://kb.acme.example/v1')).toBeUndefined();
    registered.set('acme-kb', ['https://kb2.acme.example']);
    expect(refusal(check, 'acme-kb', 'https://kb.acme.example/v1')).toMatchObject({ rule: 'destination' });
    expect(refusal(createDestinationCheck(), 'mem0', 'https://api.mem0.ai')).toMatchObject({ rule: 'destination' });
  });
});
