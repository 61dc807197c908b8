import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialPatterns, findCredential, looksLikeCredential } from './credential-patterns';
import { detectPii } from './pii-detection';

// One made-up token of every known shape, each long enough to be one.
const tokens: Record<string, string> = {
  openai: 'sk-proj-Z3x9Qm2Lp8Vt4Rw7Yb1Nc6Kd',
  anthropic: 'sk-ant-api03-Hq7Ls2Xp9Mz4Vb8Nw3Tc6Ry1',
  awsKey: 'AKIAIOSFODNN7EXAMPLE',
  awsSession: 'ASIAIOSFODNN7EXAMPLE',
  githubPersonal: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  githubOauth: 'gho_16C7e42F292c6912E7710c838347Ae178B4a',
  githubUser: 'ghu_16C7e42F292c6912E7710c838347Ae178B4a',
  githubServer: 'ghs_16C7e42F292c6912E7710c838347Ae178B4a',
  githubRefresh: 'ghr_16C7e42F292c6912E7710c838347Ae178B4a',
  githubFineGrained: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789',
  slackBot: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  slackUser: 'xoxp-123456789012-1234567890123-AbCdEfGh',
  slackApp: 'xapp-1-A0123456789-0123456789012-abcdef',
  google: 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
  gitlab: 'glpat-xxxxxxxxxxxxxxxxxxxx',
  stripe: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  npm: 'npm_1234567890abcdefghijklmnopqrstuvwxyz',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----',
  memplane: 'mpk_3q2-7wSLtGZJ0aB_x9YhQeVfK4pRmN8cD1uIoT6sWzE',
  memplaneImportedServer: 'mps_-Lq2-7wSLtGZJ0aB_x9YhQeVfK4pRmN8cD1uIoT6s_-',
  memplaneImportedMcp: 'mpt_Lq2Z7wSLtGZJ0aBYx9YhQeVfK4pRmN8cD1uIoT6sWzE',
};

describe('credential patterns', () => {
  it.each(Object.entries(tokens))('finds %s alone, after a scheme, in a URL, a header value and JSON', (_name, token) => {
    for (const text of [token, `Bearer ${token}`, `https://api.example.com/v1?key=${token}&page=2`, `x-api-key: ${token}`, JSON.stringify({ value: token })]) {
      expect(looksLikeCredential(text), text).toBe(true);
    }
  });

  it('names what it found, never the value', () => {
    expect(findCredential(`token ${tokens.awsSession!}`)?.description).toBe('an AWS access key id');
    for (const { description } of credentialPatterns) expect(Object.values(tokens).some((token) => description.includes(token))).toBe(false);
  });

  it('leaves ordinary text and identifiers alone', () => {
    for (const text of ['us-east-1', 'sk-learn', 'task-management-system', 'memory-0123456789', 'https://api.mem0.ai', 'AKIA', 'eyJ', 'ghp_short', 'xoxb-1', 'my-npm_package', 'mpk_short', 'the mpt_ prefix']) {
      expect(looksLikeCredential(text), text).toBe(false);
    }
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9 .,-]{0,60}$/), (text) => !looksLikeCredential(text) || /sk-|xox/.test(text)));
  });

  it('cannot be switched off by a caller', () => {
    expect(Object.isFrozen(credentialPatterns)).toBe(true);
    expect(credentialPatterns.every((entry) => Object.isFrozen(entry) && Object.isFrozen(entry.prefixes))).toBe(true);
  });

  it('are what PII detection calls an api-key, every shape of them', () => {
    for (const [name, token] of Object.entries(tokens)) {
      expect(detectPii(`remember ${token} for later`), name).toEqual({ risk: 2, kinds: ['api-key'] });
    }
  });
});
