import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainSecretIssues } from '../bindings/secret-reference';
import { credentialInString, isCredentialKeyName } from './credential-shapes';

// Keys and values that never look like credentials: no credential word, no `=`, `?`, `@`, space.
const benignKey = fc.constantFrom('region', 'timeoutMs', 'memoryId', 'captureRole', 'searchThreshold', 'retry', 'maxRetries', 'root', 'fusion', 'labels', 'items', 'mode');
const benignValue = fc.oneof(fc.stringMatching(/^[a-z0-9.-]{0,20}$/), fc.integer(), fc.boolean(), fc.constant(null));
const benignConfig = fc.letrec<{ node: unknown; object: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, benignValue, tie('object'), fc.array(tie('node'), { maxLength: 3 })),
  object: fc.dictionary(benignKey, tie('node'), { maxKeys: 4 }),
})).object;

// Every credential key shape of the issue, in any case and with any separator.
const credentialWord = fc.constantFrom('apiKey', 'apiKeys', 'api_key', 'secret', 'secretAccessKey', 'access-key', 'accessKeyId', 'token', 'sessionToken', 'password', 'auth', 'credential', 'credentials', 'Authorization', 'x-api-key', 'clientSecret', 'privateKey', 'cookie');
const anyCase = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((upper) => [...word].map((letter, index) => (upper[index] ? letter.toUpperCase() : letter.toLowerCase())).join(''));
const credentialKey = credentialWord.chain(anyCase);
// A credential value: long enough that it cannot appear in a message by chance.
const credentialValue = fc.stringMatching(/^[A-Za-z0-9]{12,40}$/);
const path = fc.array(fc.oneof(benignKey, fc.nat({ max: 2 })), { maxLength: 4 });

/** Puts `value` at `path` under `config` (numbers make arrays). */
function place(config: Record<string, unknown>, at: Array<string | number>, key: string, value: unknown): { config: Record<string, unknown>; field: string } {
  const root: Record<string, unknown> = structuredClone(config);
  let node: Record<string, unknown> | unknown[] = root;
  const fieldPath: string[] = ['config'];
  for (const [index, step] of at.entries()) {
    const next = typeof at[index + 1] === 'number' ? [] : {};
    if (Array.isArray(node)) {
      node.push(next);
      fieldPath.push(String(node.length - 1));
    } else {
      const name = typeof step === 'number' ? `n${step}` : step;
      (node as Record<string, unknown>)[name] = next;
      fieldPath.push(name);
    }
    node = next as Record<string, unknown> | unknown[];
  }
  if (Array.isArray(node)) {
    node.push({ [key]: value });
    fieldPath.push(String(node.length - 1), key);
  } else {
    node[key] = value;
    fieldPath.push(key);
  }
  return { config: root, field: fieldPath.join('.') };
}

describe('the plain-credential detector', () => {
  it('accepts configs without credentials', () => {
    fc.assert(
      fc.property(benignConfig, (config) => {
        expect(plainSecretIssues(config)).toEqual([]);
      }),
    );
  });

  it('refuses a credential under a credential-like key at any depth, in any case, in arrays, naming the field and never the value', () => {
    fc.assert(
      fc.property(benignConfig, path, credentialKey, credentialValue, fc.boolean(), (config, at, key, value, inArray) => {
        const { config: withSecret, field } = place(config, at, key, inArray ? [value] : value);
        const issues = plainSecretIssues(withSecret);
        expect(issues.map((issue) => issue.path)).toContain(inArray ? `${field}.0` : field);
        expect(JSON.stringify(issues)).not.toContain(value);
        // The same place holding a reference is fine.
        expect(plainSecretIssues(place(config, at, key, inArray ? [{ $secret: { env: 'NAME' } }] : { $secret: { key: 'vault/x' } }).config)).toEqual([]);
      }),
    );
  });

  it('refuses every string inside a credential-like object (auth: { user, pass }, headers.Authorization)', () => {
    fc.assert(
      fc.property(credentialKey, benignKey, credentialValue, (key, inner, value) => {
        expect(plainSecretIssues({ [key]: { [inner]: value } }).map((issue) => issue.path)).toEqual([`config.${key}.${inner}`]);
        expect(plainSecretIssues({ headers: { [key]: `Bearer ${value}` } })).toHaveLength(1);
      }),
    );
  });

  it('refuses URLs and connection strings that carry credentials, under any key', () => {
    const host = fc.domain();
    const scheme = fc.constantFrom('https', 'http', 'postgres', 'postgresql', 'mysql', 'redis', 'mongodb+srv', 'amqp');
    const parameter = fc.constantFrom('api_key', 'apikey', 'apiKey', 'token', 'access_token', 'key', 'secret', 'password', 'sig', 'X-Amz-Signature', 'auth').chain(anyCase);
    fc.assert(
      fc.property(benignKey, scheme, host, credentialValue, fc.option(credentialValue, { nil: undefined }), (key, protocol, domain, password, user) => {
        const url = `${protocol}://${user ?? 'admin'}${user === undefined ? '' : `:${password}`}@${domain}/db`;
        const issues = plainSecretIssues({ [key]: url });
        expect(issues.map((issue) => issue.path)).toEqual([`config.${key}`]);
        expect(JSON.stringify(issues)).not.toContain(password);
      }),
    );
    fc.assert(
      fc.property(benignKey, host, parameter, credentialValue, fc.boolean(), (key, domain, name, value, first) => {
        const query = first ? `${name}=${value}&page=2` : `page=2&${name}=${value}`;
        expect(plainSecretIssues({ [key]: `https://${domain}/v1/search?${query}` })).toHaveLength(1);
      }),
    );
    fc.assert(
      fc.property(benignKey, host, credentialValue, fc.constantFrom('Password', 'password', 'PWD', 'pwd', 'passwd'), (key, domain, value, word) => {
        expect(plainSecretIssues({ [key]: `Server=${domain};Database=memory;User Id=app;${word}=${value};` })).toHaveLength(1);
        expect(plainSecretIssues({ [key]: `host=${domain} dbname=memory ${word.toLowerCase()}=${value}` })).toHaveLength(1);
      }),
    );
  });

  it('lets plain endpoints and ordinary values through', () => {
    for (const value of ['https://api.mem0.ai', 'https://api.supermemory.ai/v3?page=2', 'us-east-1', 'memory-0123456789', './notes', 'user']) {
      expect(credentialInString(value)).toBeUndefined();
    }
    for (const key of ['region', 'timeoutMs', 'tokenLimit', 'baseURL', 'endpoint', 'root']) expect(isCredentialKeyName(key)).toBe(key === 'tokenLimit');
    // A number under a credential-like key is a limit, not a credential.
    expect(plainSecretIssues({ tokenLimit: 5, maxTokens: 100 })).toEqual([]);
  });

  it('takes `key` and names ending in a secret key for credentials, and other names ending in key for names', () => {
    for (const key of ['key', 'KEY', 'keys', 'accountKey', 'Ocp-Apim-Subscription-Key', 'master_key', 'encryptionKeys']) expect(isCredentialKeyName(key), key).toBe(true);
    for (const key of ['bindingKey', 'partitionKey', 'sortKey', 'keyPrefix', 'publicKey', 'monkey', 'keyword']) expect(isCredentialKeyName(key), key).toBe(false);
    // In a name/value pair, `key` names the header: only the value is a credential, and only when the name says so.
    expect(plainSecretIssues({ headers: [{ key: 'X-Trace-Id', value: 'trace-1' }, { key: 'X-Api-Key', value: 'abc123' }] }).map((issue) => issue.path)).toEqual(['config.headers.1.value']);
  });
});
