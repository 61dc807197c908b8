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

/** Whether a config key names a credential (`apiKey`, `headers.Authorization`, `secret_access_key`, …). */
export function isCredentialKeyName(key: string): boolean {
  const folded = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return credentialWords.some((word) => folded.includes(word));
}

function isCredentialParameterName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return credentialParameters.has(folded) || isCredentialKeyName(name);
}

// `scheme://user:password@host`, with or without a password, also for schemes URL cannot parse.
const userinfoPattern = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i;
// `password=…` in key=value connection strings (`Server=db;Password=…`, `host=db password=…`).
const connectionStringPattern = /(?:^|[;\s&?,])\s*([a-z0-9_ .-]{1,40}?)\s*=\s*[^;\s&]/gi;
// Authorization header values, private keys and well-known key formats.
const credentialValuePatterns = [
  /^\s*(?:bearer|basic|token|digest)\s+\S{4,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
];

/**
 * Why a string value carries a credential whatever key it sits under, or undefined when it
 * does not: a URL or connection string with a user or password, a credential query parameter
 * (`?api_key=`, `token=`, `key=`, …), `Password=` in a connection string, an authorization
 * header value, a private key or an AWS access key id. Never repeats the value.
 */
export function credentialInString(value: string): string | undefined {
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
  if (credentialValuePatterns.some((pattern) => pattern.test(value))) return 'looks like a credential';
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}
