/**
 * One shape of credential: a provider's key or token format, recognisable wherever it appears
 * in a text (a memory, a config value, a header value).
 */
export interface CredentialPattern {
  /** What it is, for messages, such as `a GitHub token`. Never the value. */
  readonly description: string;
  /** Substrings one of which every match contains: a text with none of them is ruled out cheaply. */
  readonly prefixes: readonly string[];
  /** Finds the credential anywhere in a text (not anchored, not global). */
  readonly pattern: RegExp;
}

/**
 * The credential shapes memplane knows, in one list: PII detection (`detectPii`, kind
 * `api-key`) and the memory service's refusal of plain credentials in binding configs both use
 * it. Each is a format a provider issues, specific enough that ordinary text does not match.
 */
export const credentialPatterns: readonly CredentialPattern[] = frozen([
  { description: 'an OpenAI or Anthropic API key', prefixes: ['sk-'], pattern: /\bsk-[A-Za-z0-9_-]{16,}/ },
  { description: 'an AWS access key id', prefixes: ['AKIA', 'ASIA'], pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  {
    description: 'a GitHub token',
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/,
  },
  { description: 'a Slack token', prefixes: ['xox', 'xapp-'], pattern: /\b(?:xox[abeoprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})/ },
  { description: 'a Google API key', prefixes: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { description: 'a GitLab token', prefixes: ['glpat-'], pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { description: 'a Stripe key', prefixes: ['_live_', '_test_'], pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/ },
  { description: 'an npm token', prefixes: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { description: 'a JSON Web Token', prefixes: ['eyJ'], pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/ },
  { description: 'a private key', prefixes: ['PRIVATE KEY-----'], pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  // memplane's own bearer tokens (`memplane token issue`: mpk_; imported from older releases: mps_, mpt_), 32 bytes in base64url.
  { description: 'a memplane bearer token', prefixes: ['mpk_', 'mps_', 'mpt_'], pattern: /(?<![A-Za-z0-9_-])mp[kst]_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/ },
]);

/** The list and its entries frozen, so no caller can switch a pattern off for everyone. */
function frozen(patterns: CredentialPattern[]): readonly CredentialPattern[] {
  return Object.freeze(patterns.map((entry) => Object.freeze({ ...entry, prefixes: Object.freeze([...entry.prefixes]) })));
}

/** Whether a text contains a prefix of some credential pattern: false rules every pattern out. */
export function mayHoldCredential(text: string): boolean {
  for (const { prefixes } of credentialPatterns) {
    for (const prefix of prefixes) if (text.includes(prefix)) return true;
  }
  return false;
}

/** The first of {@link credentialPatterns} a text holds anywhere in it, or undefined. */
export function findCredential(text: string): CredentialPattern | undefined {
  for (const credential of credentialPatterns) {
    if (credential.prefixes.some((prefix) => text.includes(prefix)) && credential.pattern.test(text)) return credential;
  }
  return undefined;
}

/** Whether a text holds a credential of one of the known shapes ({@link credentialPatterns}) anywhere in it. */
export function looksLikeCredential(text: string): boolean {
  return findCredential(text) !== undefined;
}
