import { z } from 'zod';
import { paperclipSecretRefSchema } from './paperclip-secret-refs';

/** Whether a URL's host is this machine: `localhost`, 127.0.0.0/8 or `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && Number(octets[1]) === 127 && octets.slice(2).every((octet) => Number(octet) <= 255);
}

/**
 * Why a `memplane serve` URL is refused, or undefined when it may be used. It must be http(s),
 * carry no credentials, query or fragment, and use TLS unless it stays on this machine: a
 * plain http:// URL to another host would send the bearer token across the network in clear,
 * so it is refused unless `allowInsecureHttp` says the operator chose that.
 */
export function serverUrlRefusal(text: string, allowInsecureHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// (or loopback http://) URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials; the token is a secret_ref in service.token';
  if (url.search !== '' || url.hash !== '') return 'must not have a query or a fragment';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    return 'is plain http:// to a host that is not this machine, so the token would travel in clear; use https://, or set service.allowInsecureHttp on a network you trust';
  }
  return undefined;
}

/** The service hosted in the worker (the default). */
const workerServiceSchema = z.strictObject({ mode: z.literal('worker') });

/** A `memplane serve` reached through `ctx.http`. */
const httpServiceSchema = z
  .strictObject({
    mode: z.literal('http'),
    /**
     * The server's base URL, such as `https://memory.example.com` (the `/v1` routes are under it).
     * Paperclip's `ctx.http` refuses loopback and private addresses (10/8, 172.16/12, 192.168/16,
     * 127/8, 169.254/16, ::1, fc00::/7, fe80::/10), so on Paperclip 2026.916.1 this must be a
     * public https address; loopback passes this check for hosts whose `ctx.http` allows it.
     */
    url: z.string().min(1).max(2048),
    /** The server token (`memplane token issue`), as a Paperclip secret reference. */
    token: paperclipSecretRefSchema,
    /** Allow plain http:// to a host that is not loopback (the token then travels in clear). Default false. */
    allowInsecureHttp: z.boolean().default(false),
    /** How long one call may take before the worker gives up on it (`MEMORY_TIMEOUT`). Default 15 s. */
    timeoutMs: z.number().int().min(100).max(300_000).default(15_000),
    /**
     * The token was issued with `memplane token issue --operator <id> --act-as-agents`: an
     * agent's tool calls then run on the server as that agent (named in `Memplane-Agent-Id`), so
     * the server applies its agent identity policy (own and shared records) and logs the agent as
     * the actor. Default false: the server sees the operator, and the worker narrows an agent's
     * calls to its own records itself.
     */
    actAsAgents: z.boolean().default(false),
  })
  .superRefine((service, issues) => {
    const refusal = serverUrlRefusal(service.url, service.allowInsecureHttp);
    if (refusal !== undefined) issues.addIssue({ code: 'custom', path: ['url'], message: refusal });
  });

/** Where the worker's memory service lives. */
export const serviceLocationSchema = z.discriminatedUnion('mode', [workerServiceSchema, httpServiceSchema]);

/** A parsed http-mode service location. */
export type HttpServiceLocation = z.output<typeof httpServiceSchema>;

/** The memplane inspector the issue tab links to (`false`: no link). Only http(s), never with credentials. */
export const inspectorUrlSchema = z.union([
  z
    .string()
    .min(1)
    .max(2048)
    .refine((text) => {
      const url = URL.canParse(text) ? new URL(text) : undefined;
      return url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
    }, 'must be an http(s) URL without credentials'),
  z.literal(false),
]);

/** The inspector base URL: the configured one, else the http-mode server's, else none. */
export function inspectorBaseOf(config: { inspectorUrl?: string | false | undefined; service?: { mode: string; url?: string } | undefined }): string | undefined {
  if (config.inspectorUrl === false) return undefined;
  if (config.inspectorUrl !== undefined) return config.inspectorUrl;
  return config.service?.mode === 'http' ? config.service.url : undefined;
}
