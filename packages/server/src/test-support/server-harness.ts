import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemplaneHost, type MemplaneTokenGrant, type MemplaneTokenStore } from '@memplane/host';
import type { MemoryService } from '@memplane/service';
import { startMemplaneServer, type RunningMemplaneServer, type StartMemplaneServerSettings } from '../start-memplane-server';

/** A server on loopback over a fresh service, with tokens of every kind for two companies. */
export interface ServerHarness {
  server: RunningMemplaneServer;
  service: MemoryService;
  tokens: MemplaneTokenStore;
  folder: string;
  /** Moves the token store's clock (expiry, revocation) ahead of the system's. */
  advanceTokenClock(milliseconds: number): void;
  /** Tokens by name: operator (every company), opAcme (operator of acme only), adminAcme, adminGlobex, agentAcme (planner), agentGlobex. */
  token: Record<'operator' | 'opAcme' | 'adminAcme' | 'adminGlobex' | 'agentAcme' | 'agentGlobex', string>;
  /** Calls the server with fetch. */
  call(method: string, path: string, options?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

const grants: Record<keyof ServerHarness['token'], MemplaneTokenGrant> = {
  operator: { role: 'operator', operatorId: 'ops' },
  opAcme: { role: 'operator', operatorId: 'ops-acme', companyIds: ['acme'] },
  adminAcme: { role: 'admin', companyId: 'acme' },
  adminGlobex: { role: 'admin', companyId: 'globex' },
  agentAcme: { role: 'agent', companyId: 'acme', agentId: 'planner' },
  agentGlobex: { role: 'agent', companyId: 'globex', agentId: 'spy' },
};

/** The companies of the harness; each has its default binding before the first call, as a company in use has. */
export const harnessCompanies = ['acme', 'globex'] as const;

/** Starts a harness; `settings` override the server's. */
export async function startServerHarness(settings: Partial<StartMemplaneServerSettings> = {}): Promise<ServerHarness> {
  const folder = await mkdtemp(join(tmpdir(), 'memplane-server-'));
  // The host of memplane serve: the service on SQLite in the folder, markdown and memory, the token table.
  let clockOffset = 0;
  const host = await openMemplaneHost({ dataDirectory: join(folder, 'data'), component: 'test', now: () => new Date(Date.now() + clockOffset) });
  const { service, tokens } = host;
  const token = {} as ServerHarness['token'];
  for (const [name, grant] of Object.entries(grants)) token[name as keyof typeof grants] = (await tokens.issue(grant)).token;
  // Reads of a company the service does not know answer 404: the two companies are in use from the start.
  for (const companyId of harnessCompanies) await host.ensureDefaultBinding(companyId);
  const server = await startMemplaneServer({
    service,
    verifyToken: (value) => tokens.verify(value),
    prepareCompany: (companyId) => host.ensureDefaultBinding(companyId),
    knownCompanies: async () => ['acme', 'globex'],
    port: 0,
    inspectorDirectory: false,
    ...settings,
  });
  return {
    server,
    service,
    tokens,
    folder,
    advanceTokenClock: (milliseconds) => void (clockOffset += milliseconds),
    token,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async close() {
      await server.close();
      await host.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
