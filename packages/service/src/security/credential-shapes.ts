import { findCredential } from '@memplane/rules';

/*
 * What a credential looks like inside a binding config, so one written in plain text is refused.
 * The rules err on the side of refusing: a false positive costs the admin a secret reference,
 * a false negative stores a credential in the bindings table and the activity log.
 */

// Key names that hold credentials, matched on the lowercased name with separators removed, so
// `apiKey`, `API_KEYS`, `x-api-key`, `secretAccessKey` and `Authorization` all match.
const credentialWords = [
  'apikey',
  'secret',
  'accesskey',
  'token',
  'password',
  'passwd',
  'passphrase',
  'auth',
  'credential',
  'privatekey',
  'cookie',
  'signature',
  'sessionkey',
  'clientkey',
];

// Query parameter and connection-string keys that carry credentials on top of the words above.
const credentialParameters = new Set(['key', 'sig', 'pwd', 'pass', 'code', 'xamzcredential', 'xamzsignature', 'xamzsecuritytoken']);

// Key names that hold credentials only as a whole or as the end of the name: `key` itself, and
// `accountKey` (Azure storage), `subscriptionKey`, `masterKey`, `encryptionKey`, … but not
// `bindingKey` or `partitionKey`.
const credentialKeyEndings = ['masterkey', 'accountkey', 'subscriptionkey', 'encryptionkey', 'signingkey', 'licensekey', 'sharedkey', 'hmackey', 'webhookkey'];

/** Whether a config key names a credential (`apiKey`, `key`, `headers.Authorization`, `secret_access_key`, …). */
export function isCredentialKeyName(key: string): boolean {
  const folded = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return folded === 'key' || folded === 'keys' || credentialWords.some((word) => folded.includes(word)) || credentialKeyEndings.some((ending) => folded.endsWith(ending) || folded.endsWith(`${ending}s`));
}

function isCredentialParameterName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return credentialParameters.has(folded) || isCredentialKeyName(name);
}

// `scheme://user:password@host`, with or without a password, also for schemes URL cannot parse.
const userinfoPattern = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;
// `password=…` in key=value connection strings (`Server=db;Password=…`, `host=db password=…`).
const connectionStringPattern = /(?:^|[;\s&?,])\s*([a-z0-9_ .-]{1,40}?)\s*=\s*[^;\s&]/gi;
// An Authorization header value.
const authorizationValuePattern = /^\s*(?:bearer|basic|token|digest)\s+\S{4,}/i;

/**
 * Why a string value carries a credential whatever key it sits under, or undefined when it
 * does not: a key or token of a known shape anywhere in it (core's `credentialPatterns`: `sk-…`,
 * `AKIA…`/`ASIA…`, `ghp_…`, `xox…`, JSON Web Tokens, private keys, …), a URL or connection
 * string with a user or password, a credential query parameter (`?api_key=`, `token=`, `key=`,
 * …), `Password=` in a connection string, or an authorization header value. Never repeats the value.
 */
export function credentialInString(value: string): string | undefined {
  const known = findCredential(value);
  if (known !== undefined) return `holds what looks like ${known.description}`;
  if (userinfoPattern.test(value)) return 'is a URL or connection string with a user or password in it';
  const queryStart = value.indexOf('?');
  if (queryStart >= 0) {
    const query = value.slice(queryStart + 1).split('#', 1)[0]!;
    for (const pair of query.split(/[&;]/)) {
      const name = safeDecode(pair.split('=', 1)[0]!);
      if (name !== '' && isCredentialParameterName(name)) return 'is a URL with a credential in its query';
    }
  }
  for (const match of value.matchAll(connectionStringPattern)) {
    if (isCredentialParameterName(match[1]!)) return 'is a connection string with a credential in it';
  }
  if (authorizationValuePattern.test(value)) return 'looks like an authorization header value';
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
