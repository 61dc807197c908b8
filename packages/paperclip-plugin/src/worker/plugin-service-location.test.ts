import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemplanePaperclipPlugin } from './memplane-paperclip-plugin';
import { inspectorOperationsUrl } from './memory-ui-data';
import { inspectorBaseOf, isLoopbackHost, serverUrlRefusal } from './plugin-service-location';

const token = { type: 'secret_ref', secretId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' };
const validate = (config: unknown) => createMemplanePaperclipPlugin().definition.onValidateConfig?.(config as Record<string, unknown>);

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,14}[a-z0-9]$/);
const remoteName = fc.tuple(label, fc.constantFrom('com', 'net', 'internal', 'io')).map(([name, tld]) => `${name}.${tld}`).filter((host) => !isLoopbackHost(host));
const remoteIpv4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).filter(([first]) => first !== 127).map((octets) => octets.join('.'));

describe('where memplane serve may be', () => {
  it('refuses plain http:// to any host that is not this machine, unless allowInsecureHttp says so', () => {
    fc.assert(
      fc.property(fc.oneof(remoteName, remoteIpv4), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), (host, port) => {
        const url = `http://${host}${port === undefined ? '' : `:${port}`}/`;
        expect(serverUrlRefusal(url, false)).toMatch(/token would travel in clear/);
        expect(serverUrlRefusal(url, true)).toBeUndefined();
        expect(serverUrlRefusal(url.replace('http:', 'https:'), false)).toBeUndefined();
      }),
    );
  });

  it('accepts loopback http, and refuses credentials, queries, fragments and other schemes', () => {
    for (const url of ['http://127.0.0.1:4680', 'http://127.9.0.1', 'http://localhost:4680/base', 'http://[::1]:4680']) expect(serverUrlRefusal(url, false)).toBeUndefined();
    expect(serverUrlRefusal('https://user:pass@memory.example.com', false)).toMatch(/credentials/);
    expect(serverUrlRefusal('https://memory.example.com/?token=x', false)).toMatch(/query/);
    expect(serverUrlRefusal('https://memory.example.com/#x', false)).toMatch(/fragment/);
    expect(serverUrlRefusal('ftp://memory.example.com', false)).toMatch(/https/);
    expect(serverUrlRefusal('memory.example.com', false)).toMatch(/absolute URL/);
    // Names that only look local, and loopback forms the check does not read (IPv4-mapped), are refused: it fails closed.
    for (const host of ['127.0.0.1.example.com', 'localhost.example.com', '0.0.0.0', '10.0.0.5', '[::ffff:7f00:1]']) expect(serverUrlRefusal(`http://${host}/`, false)).toMatch(/in clear/);
  });

  it('the settings form refuses an insecure URL and a token written in plain text, naming the field and never the value', async () => {
    const insecure = await validate({ service: { mode: 'http', url: 'http://10.0.0.5:4680', token } });
    expect(insecure).toMatchObject({ ok: false, errors: [expect.stringMatching(/^config\.service\.url: is plain http:\/\//)] });
    const plain = await validate({ service: { mode: 'http', url: 'https://memory.example.com', token: 'mps_plain-token-in-config' } });
    expect(plain?.ok).toBe(false);
    expect(plain?.errors?.join('\n')).toMatch(/^config\.service\.token: must be a Paperclip secret reference \{ "type": "secret_ref"/);
    expect(plain?.errors?.join('\n')).not.toContain('mps_plain-token-in-config');
    const storage = await validate({ service: { mode: 'http', url: 'https://memory.example.com', token }, storage: { dataDirectory: '/srv/x' } });
    expect(storage?.errors).toEqual([expect.stringMatching(/^config\.storage: applies only when the service runs in the worker/)]);
    expect(await validate({ service: { mode: 'http', url: 'https://memory.example.com', token } })).toEqual({ ok: true });
    expect(await validate({ service: { mode: 'http', url: 'http://127.0.0.1:4680', token } })).toEqual({ ok: true });
    expect(await validate({ service: { mode: 'http', url: 'http://10.0.0.5:4680', token, allowInsecureHttp: true } })).toEqual({ ok: true });
  });
});

describe('the inspector link', () => {
  it('defaults to the http-mode server, can be set or turned off, and takes only http(s) without credentials', async () => {
    expect(inspectorBaseOf({ service: { mode: 'http', url: 'https://memory.example.com' } })).toBe('https://memory.example.com');
    expect(inspectorBaseOf({ service: { mode: 'worker' } })).toBeUndefined();
    expect(inspectorBaseOf({ inspectorUrl: 'https://inspect.example.com', service: { mode: 'http', url: 'https://memory.example.com' } })).toBe('https://inspect.example.com');
    expect(inspectorBaseOf({ inspectorUrl: false, service: { mode: 'http', url: 'https://memory.example.com' } })).toBeUndefined();
    for (const bad of ['javascript:alert(1)', 'https://u:p@inspect.example.com', 'data:text/html,x']) {
      expect((await validate({ inspectorUrl: bad }))?.errors).toEqual([expect.stringMatching(/^config\.inspectorUrl: /)]);
    }
  });

  it('points at the inspector operations page of the company, filtered by the issue, with every id encoded', () => {
    expect(inspectorOperationsUrl('https://memory.example.com/base', 'acme', 'iss-1')).toBe('https://memory.example.com/base#/acme/operations?issueId=iss-1');
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (companyId, issueId) => {
        const url = new URL(inspectorOperationsUrl('https://memory.example.com', companyId, issueId));
        expect(url.origin).toBe('https://memory.example.com');
        const [path = '', search = ''] = url.hash.slice(1).split('?');
        expect(path.split('/').map(decodeURIComponent)).toEqual(['', companyId, 'operations']);
        expect(new URLSearchParams(search).get('issueId')).toBe(issueId);
      }),
    );
  });
});
