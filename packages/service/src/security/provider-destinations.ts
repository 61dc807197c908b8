import { BlockList, isIP } from 'node:net';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';

/**
 * Where bindings may send their provider's requests: operator policy, never a company admin's
 * choice. An entry is a URL: scheme, host (a `*` label stands for exactly one DNS label, as in
 * `https://bedrock-agentcore.*.amazonaws.com`), optional port and optional path prefix.
 */
export interface MemoryDestinationPolicy {
  /**
   * The endpoints each provider id may reach. Naming a provider replaces its defaults (the
   * official endpoints its description declares, `destination.officialEndpoints`); a provider
   * without an entry reaches nothing but its defaults (none for a provider that declares none).
   */
  endpoints?: Readonly<Record<string, readonly string[]>>;
  /**
   * Lets bindings reach allow-listed loopback and private addresses (`127.0.0.1`, `::1`,
   * `localhost`, `10/8`, `172.16/12`, `192.168/16`, link-local, unique local): a local proxy, a
   * self-hosted provider, a test server. Default false: even an allow-listed one is refused.
   */
  allowPrivateNetworks?: boolean;
}

const privateAddresses = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  privateAddresses.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateAddresses.addSubnet(address, prefix, 'ipv6');
}

/** Whether a URL host (as `URL.hostname` gives it) is a loopback, private, link-local or local-only address or name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const family = isIP(host);
  if (family !== 0) return privateAddresses.check(host, family === 4 ? 'ipv4' : 'ipv6');
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || !host.includes('.');
}

interface EndpointPattern {
  protocol: string;
  hostLabels: string[];
  port: string;
  pathPrefix: string;
}

function patternOf(entry: string): EndpointPattern | undefined {
  let url: URL;
  try {
    url = new URL(entry.replace(/\*/g, 'wildcard-label'));
  } catch {
    return undefined;
  }
  return {
    protocol: url.protocol,
    hostLabels: url.hostname.split('.').map((label) => (label === 'wildcard-label' ? '*' : label)),
    port: url.port,
    pathPrefix: url.pathname.replace(/\/+$/, ''),
  };
}

function matches(pattern: EndpointPattern, url: URL): boolean {
  if (pattern.protocol !== url.protocol || pattern.port !== url.port) return false;
  const labels = url.hostname.split('.');
  if (labels.length !== pattern.hostLabels.length) return false;
  if (!pattern.hostLabels.every((label, index) => (label === '*' ? /^[a-z0-9-]+$/.test(labels[index]!) : label === labels[index]))) return false;
  const path = url.pathname.replace(/\/+$/, '');
  return pattern.pathPrefix === '' || path === pattern.pathPrefix || path.startsWith(`${pattern.pathPrefix}/`);
}

/** Checks one endpoint of one binding; throws `MemoryBindingRefusedError` (rule `destination`) naming the field. */
export type DestinationCheck = (request: { providerId: string; companyId: string; field: string; url: unknown }) => void;

/** The official endpoints of a registered provider (its description's `destination.officialEndpoints`), or undefined. */
export type OfficialEndpointsLookup = (providerId: string) => readonly string[] | undefined;

const patternsOf = (entries: readonly string[]) => entries.map(patternOf).filter((pattern): pattern is EndpointPattern => pattern !== undefined);

/**
 * Builds the check of a destination policy. A provider's allow-list is the operator's entry for
 * it when there is one, else the official endpoints of its description as registered at the
 * time of the check, so a provider registered later, or replaced, is held to its own list.
 */
export function createDestinationCheck(policy: MemoryDestinationPolicy = {}, officialEndpointsOf: OfficialEndpointsLookup = () => undefined): DestinationCheck {
  const operatorAllowed = new Map<string, EndpointPattern[]>();
  for (const [providerId, entries] of Object.entries(policy.endpoints ?? {})) operatorAllowed.set(providerId, patternsOf(entries));
  // Descriptions are frozen and kept as registered, so their lists can be parsed once each.
  const officialAllowed = new WeakMap<readonly string[], EndpointPattern[]>();
  const allowedFor = (providerId: string): EndpointPattern[] => {
    const operator = operatorAllowed.get(providerId);
    if (operator !== undefined) return operator;
    const official = officialEndpointsOf(providerId);
    if (official === undefined) return [];
    let patterns = officialAllowed.get(official);
    if (patterns === undefined) {
      patterns = patternsOf(official);
      officialAllowed.set(official, patterns);
    }
    return patterns;
  };
  return ({ providerId, companyId, field, url }) => {
    const refuse = (message: string): never => {
      throw new MemoryBindingRefusedError({ rule: 'destination', companyId, field, message });
    };
    if (typeof url !== 'string') return refuse('must be a plain URL on the operator\'s allow-list');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return refuse('must be a URL');
    }
    if (parsed.username !== '' || parsed.password !== '') return refuse('must not carry a user or password');
    if (isPrivateHost(parsed.hostname) && policy.allowPrivateNetworks !== true) {
      return refuse('is a loopback or private address, and the operator has not allowed private networks');
    }
    const patterns = allowedFor(providerId);
    if (!patterns.some((pattern) => matches(pattern, parsed))) {
      return refuse(`is not an endpoint the operator allows for provider "${providerId}"`);
    }
  };
}

const urlLike = /^\s*(?:https?|wss?):\/\//i;

/**
 * Checks every URL-shaped string of a config against the allow-list, whatever field holds it,
 * so a plugin's own endpoint setting is operator policy too.
 */
export function checkConfigDestinations(check: DestinationCheck, providerId: string, companyId: string, config: unknown, path: string[] = ['config']): void {
  if (typeof config === 'string') {
    if (urlLike.test(config)) check({ providerId, companyId, field: path.join('.'), url: config.trim() });
  } else if (Array.isArray(config)) {
    config.forEach((item, index) => checkConfigDestinations(check, providerId, companyId, item, [...path, String(index)]));
  } else if (typeof config === 'object' && config !== null) {
    for (const [key, item] of Object.entries(config)) checkConfigDestinations(check, providerId, companyId, item, [...path, key]);
  }
}
