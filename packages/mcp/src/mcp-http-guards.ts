import type { IncomingMessage, ServerResponse } from 'node:http';

/** The hostnames that are this machine: a server bound to one of them is reachable only from here. */
export const loopbackHostnames = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Whether a bind address is loopback (the default, `127.0.0.1`). */
export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The hostname of a `Host` header without its port, lower-cased (`[::1]` keeps its brackets),
 * or undefined when it is not a plain `host[:port]`.
 */
export function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(header.trim());
  return match?.[1]?.toLowerCase();
}

/**
 * DNS rebinding defence, Host side: a page on `evil.example` that makes its name resolve to
 * 127.0.0.1 still sends `Host: evil.example`, which is not an allowed name. Port-agnostic.
 */
export function hostAllowed(header: string | undefined, allowedHostnames: readonly string[]): boolean {
  const hostname = hostnameOf(header);
  return hostname !== undefined && allowedHostnames.includes(hostname);
}

/**
 * DNS rebinding defence, Origin side: a request a browser sends from a page carries its
 * `Origin`, which must be one of the allowed origins (exact, scheme and port included) or,
 * with `allowLoopbackOrigins`, any http(s) origin on a loopback hostname. Requests without
 * `Origin` come from programs, not pages, and pass; the bearer token still applies.
 */
export function originAllowed(header: string | undefined, allowedOrigins: readonly string[], allowLoopbackOrigins: boolean): boolean {
  if (header === undefined) return true;
  if (allowedOrigins.includes(header)) return true;
  if (!allowLoopbackOrigins) return false;
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && (loopbackHostnames as readonly string[]).includes(url.hostname) && url.origin === header;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerTokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i.exec(header.trim());
  return match?.[1];
}

/** Answers a refused request with a JSON-RPC error body, as the MCP transports do. */
export function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
