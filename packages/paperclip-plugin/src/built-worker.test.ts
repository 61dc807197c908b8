import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createErrorResponse,
  createRequest,
  createSuccessResponse,
  isJsonRpcRequest,
  isJsonRpcResponse,
  parseMessage,
  serializeMessage,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from '@paperclipai/plugin-sdk/protocol';
import { startMemplaneServer } from '@memplane/server';
import { openMemplaneHost } from '@memplane/host';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
const builtWorker = join(packageDirectory, 'dist', 'worker.js');
const builtManifest = join(packageDirectory, 'dist', 'manifest.js');

/**
 * A minimal Paperclip host on the other end of the worker's stdio: it answers the worker's own
 * calls (config, event subscriptions) and records every line the worker writes, which must all
 * be JSON-RPC (a stray console line would break the host's parser).
 */
class StdioHost {
  readonly lines: string[] = [];
  readonly notifications: JsonRpcMessage[] = [];
  readonly requests: Array<{ method: string; params: unknown }> = [];
  private readonly requestWaiters = new Map<string, (params: unknown) => void>();
  private readonly waiting = new Map<string | number, (response: JsonRpcResponse) => void>();
  readonly exited: Promise<number | null>;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly config: Record<string, unknown>,
    /** Host calls answered asynchronously, as the real host does for `http.fetch` and `secrets.resolve`. */
    private readonly asyncAnswers: Record<string, (params: unknown) => Promise<unknown>> = {},
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    createInterface({ input: child.stdout }).on('line', (line) => this.receive(line));
  }

  private receive(line: string): void {
    this.lines.push(line);
    const message = parseMessage(line);
    if (isJsonRpcResponse(message)) {
      if (message.id !== null) this.waiting.get(message.id)?.(message);
      return;
    }
    if (isJsonRpcRequest(message)) {
      // The worker asks the host: a company's config, the companies (one here), skill installs and event subscriptions.
      this.requests.push({ method: message.method, params: message.params });
      this.requestWaiters.get(message.method)?.(message.params);
      // As Paperclip 2026.916.1: config is stored per company, and a read without one is refused.
      if (message.method === 'config.get' && typeof (message.params as { companyId?: unknown } | undefined)?.companyId !== 'string') {
        this.child.stdin.write(serializeMessage(createErrorResponse(message.id, -32001, 'Plugin is not allowed to perform "config.get": company context is required')));
        return;
      }
      const answers: Record<string, unknown> = {
        'config.get': this.config,
        'companies.list': (message.params as { offset?: number }).offset ? [] : [{ id: 'acme' }],
        'skills.managed.reconcile': { skillId: 'skill-1', status: 'created' },
      };
      const asynchronous = this.asyncAnswers[message.method];
      if (asynchronous !== undefined) {
        void asynchronous(message.params).then((result) => this.child.stdin.write(serializeMessage(createSuccessResponse(message.id, result))));
        return;
      }
      const result = answers[message.method] ?? null;
      this.child.stdin.write(serializeMessage(createSuccessResponse(message.id, result)));
      return;
    }
    this.notifications.push(message);
  }

  /** Resolves with the params of the worker's first request of this method (a deterministic signal, no waiting on time). */
  requested(method: string): Promise<unknown> {
    const earlier = this.requests.find((request) => request.method === method);
    if (earlier !== undefined) return Promise.resolve(earlier.params);
    return new Promise((resolve) => this.requestWaiters.set(method, resolve));
  }

  call(method: string, params: unknown): Promise<JsonRpcResponse> {
    const request = createRequest(method, params);
    const answered = new Promise<JsonRpcResponse>((resolve) => this.waiting.set(request.id, resolve));
    this.child.stdin.write(serializeMessage(request));
    return answered;
  }
}

const serveTokenSecretId = '7b0e3d9c-1f2a-4e5b-8c6d-9a0b1c2d3e4f';

let folder: string;
let host: StdioHost | undefined;

beforeAll(async () => {
  // The same esbuild step `npm run build` runs (the SDK presets), so the test never reads a stale bundle.
  await promisify(execFile)(process.execPath, ['esbuild.config.mjs'], { cwd: packageDirectory });
}, 60_000);

afterEach(async () => {
  if (host !== undefined && host.child.exitCode === null) {
    host.child.kill();
    await host.exited;
  }
  host = undefined;
  await rm(folder, { recursive: true, force: true });
});

async function startBuiltWorker(storage?: Record<string, unknown>, http?: { config: Record<string, unknown>; answers: Record<string, (params: unknown) => Promise<unknown>> }) {
  folder = await mkdtemp(join(tmpdir(), 'memplane-paperclip-worker-'));
  // The service keeps its SQLite file and markdown memory in the folder the instance config names.
  const config = http?.config ?? { storage: storage ?? { dataDirectory: join(folder, 'data') } };
  const child = spawn(process.execPath, [builtWorker], { cwd: folder, env: { ...process.env, HOME: folder }, stdio: 'pipe' });
  host = new StdioHost(child, config, http?.answers);
  const manifest = ((await import(builtManifest)) as { default: Record<string, unknown> }).default;
  // The real host's initialize carries no company config (and reports hostVersion 0.0.0).
  const initialize = { manifest, config: {}, instanceInfo: { instanceId: 'test-instance', hostVersion: '2026.916.1' }, apiVersion: 1 };
  return { host, initialize };
}

describe('the built worker over stdio (dist/worker.js, JSON-RPC)', () => {
  it('initializes, answers health and shuts down cleanly, writing nothing but JSON-RPC', async () => {
    const { host, initialize } = await startBuiltWorker();
    const initialized = await host.call('initialize', initialize);
    expect(initialized).toMatchObject({ jsonrpc: '2.0', result: { ok: true } });
    expect((initialized as { result: { supportedMethods: string[] } }).result.supportedMethods).toEqual(
      expect.arrayContaining(['health', 'shutdown', 'validateConfig', 'configChanged']),
    );
    // The built entry installs the managed memory skill in the host's companies.
    expect(await host.requested('skills.managed.reconcile')).toMatchObject({ skillKey: 'memplane-memory', companyId: 'acme' });
    expect(await host.call('health', {})).toMatchObject({ result: { status: 'ok' } });
    // The company's first call reads its config (with its id) and opens the service it names.
    expect(await host.call('getData', { key: 'memplane.settings', companyId: 'acme', params: {} })).toMatchObject({ result: { companyId: 'acme' } });
    expect(host.requests.filter((request) => request.method === 'config.get').map((request) => request.params)).toEqual([{ companyId: 'acme' }]);
    expect(await host.call('health', {})).toMatchObject({ result: { status: 'ok', details: { services: [{ mode: 'worker' }] } } });
    expect(await host.call('shutdown', {})).toMatchObject({ jsonrpc: '2.0' });
    expect(await host.exited).toBe(0);
    for (const line of host.lines) expect(() => parseMessage(line), line).not.toThrow();
    // The worker really opened its store where the config said.
    expect((await readFile(join(folder, 'data', 'memplane.db'))).subarray(0, 15).toString()).toBe('SQLite format 3');
  }, 60_000);

  it('serves the UI data bridge for the company the host authorised, not the one the page sent', async () => {
    const { host, initialize } = await startBuiltWorker();
    expect(await host.call('initialize', initialize)).toMatchObject({ result: { ok: true } });
    const settings = await host.call('getData', { key: 'memplane.settings', companyId: 'acme', params: { companyId: 'globex' } });
    // acme saved no config: it gets the markdown default, and globex's config is never read.
    expect(settings).toMatchObject({ result: { companyId: 'acme', bindings: [{ key: 'default', providerId: 'markdown' }] } });
    const issue = await host.call('getData', { key: 'memplane.issue-memory', companyId: 'acme', params: { issueId: 'iss-1' } });
    expect(issue).toMatchObject({ result: { issueId: 'iss-1', records: [], unbound: false } });
    expect(host.requests.filter((request) => request.method === 'config.get').map((request) => request.params)).toEqual([{ companyId: 'acme' }]);
  }, 60_000);

  it('a company config the worker refuses fails that company\'s calls with an error naming the field, never initialize, and the worker stays a clean JSON-RPC peer', async () => {
    const { host, initialize } = await startBuiltWorker({ dataDirectory: '' });
    expect(await host.call('initialize', initialize)).toMatchObject({ result: { ok: true } });
    const refused = await host.call('getData', { key: 'memplane.settings', companyId: 'acme', params: {} });
    expect(refused).toMatchObject({ error: { message: expect.stringMatching(/storage\.dataDirectory/) } });
    expect(await host.call('health', {})).toMatchObject({ jsonrpc: '2.0' });
    for (const line of host.lines) expect(() => parseMessage(line), line).not.toThrow();
  }, 60_000);

  it('in http mode reaches a real memplane serve through the host (secrets.resolve and http.fetch over JSON-RPC), and never sends the token to the host but as a header', async () => {
    const served = await mkdtemp(join(tmpdir(), 'memplane-paperclip-served-'));
    // The host of memplane serve: the service on the folder and its token store.
    const memplaneHost = await openMemplaneHost({ dataDirectory: served });
    const service = memplaneHost.service;
    const tokens = memplaneHost.tokens;
    const { token } = await tokens.issue({ role: 'operator', operatorId: 'paperclip' });
    const server = await startMemplaneServer({ service, verifyToken: (value) => tokens.verify(value), port: 0, rateLimit: false, inspectorDirectory: false });
    const fetched: Array<{ url: string; init?: { method?: string; headers?: Record<string, string>; body?: string } }> = [];
    try {
      const { host, initialize } = await startBuiltWorker(undefined, {
        config: { service: { mode: 'http', url: server.url, token: { type: 'secret_ref', secretId: serveTokenSecretId } } },
        answers: {
          // The host resolves a secret_ref bound in the company's saved config (company and path named), and performs the request for the worker.
          'secrets.resolve': async (params) => {
            const { secretRef, companyId, configPath } = params as { secretRef?: { secretId?: string }; companyId?: string; configPath?: string };
            return secretRef?.secretId === serveTokenSecretId && companyId === 'acme' && configPath === 'service.token' ? token : null;
          },
          'http.fetch': async (params) => {
            const request = params as (typeof fetched)[number];
            fetched.push(request);
            const response = await fetch(request.url, request.init);
            return { status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), body: await response.text() };
          },
        },
      });
      expect(await host.call('initialize', initialize)).toMatchObject({ result: { ok: true } });
      const settings = await host.call('getData', { key: 'memplane.settings', companyId: 'acme', params: {} });
      expect(settings).toMatchObject({ result: { companyId: 'acme', bindings: [{ key: 'default', providerId: 'markdown' }] } });
      expect(await host.call('health', {})).toMatchObject({ result: { status: 'ok', details: { services: [{ mode: 'http', actor: 'operator' }] } } });
      const issue = await host.call('getData', { key: 'memplane.issue-memory', companyId: 'acme', params: { issueId: 'iss-1' } });
      expect(issue).toMatchObject({ result: { issueId: 'iss-1', unbound: false, inspectorUrl: `${server.url}/#/acme/operations?issueId=iss-1` } });
      expect(fetched.map((request) => new URL(request.url).pathname)).toEqual(
        expect.arrayContaining(['/v1/session', '/v1/companies/acme/control/bindings', '/v1/companies/acme/explorer/operations']),
      );
      for (const request of fetched) expect(request.init?.headers?.authorization).toBe(`Bearer ${token}`);
      // Besides those headers, no line the worker wrote carries the token.
      expect(host.lines.filter((line) => line.includes(token)).every((line) => (parseMessage(line) as { method?: string }).method === 'http.fetch')).toBe(true);
      expect(await host.call('shutdown', {})).toMatchObject({ jsonrpc: '2.0' });
    } finally {
      await server.close();
      await service.close();
      await rm(served, { recursive: true, force: true });
    }
  }, 60_000);

  it('sets the MCP bridge up through the host (local folders and members over JSON-RPC), in the company the host authorised, for its owner only', async () => {
    const { version } = JSON.parse(await readFile(join(packageDirectory, 'package.json'), 'utf8')) as { version: string };
    const userFile = JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } });
    const writes: Array<{ companyId: string; folderKey: string; relativePath: string; contents: string }> = [];
    const folderStatus = (folderKey: string) => ({ folderKey, configured: true, path: `/agents/${folderKey}`, realPath: `/agents/${folderKey}`, access: 'readWrite', readable: true, writable: true, requiredDirectories: [], requiredFiles: [], missingDirectories: [], missingFiles: [], healthy: true, problems: [], checkedAt: '2026-11-24T10:00:00.000Z' });
    const owner = { id: 'm-1', companyId: 'acme', principalType: 'user', principalId: 'ada', status: 'active', membershipRole: 'owner', grants: [], createdAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:00.000Z' };
    const { host, initialize } = await startBuiltWorker(undefined, {
      config: {},
      answers: {
        'localFolders.status': async (params) => folderStatus((params as { folderKey: string }).folderKey),
        'localFolders.readText': async () => userFile,
        'localFolders.writeTextAtomic': async (params) => {
          writes.push(params as (typeof writes)[number]);
          return folderStatus((params as { folderKey: string }).folderKey);
        },
        'access.members.list': async (params) => ((params as { companyId: string }).companyId === 'acme' ? [owner] : []),
      },
    });
    expect(await host.call('initialize', initialize)).toMatchObject({ result: { ok: true } });
    const install = (userId: string) =>
      host.call('performAction', { key: 'memplane.mcp-bridge.install', companyId: 'acme', params: { companyId: 'globex', clients: ['claude-code'] }, actorContext: { type: 'user', userId, agentId: null, runId: null, companyId: 'acme' } });
    expect(await install('mallory')).toMatchObject({ error: { message: expect.stringMatching(/owner or admin/) } });
    expect(writes).toEqual([]);
    expect(await install('ada')).toMatchObject({ result: { changes: [{ client: 'claude-code', relativePath: '.mcp.json', result: 'written' }] } });
    expect(writes.map(({ companyId, folderKey, relativePath }) => [companyId, folderKey, relativePath])).toEqual([['acme', 'agent-workspace', '.mcp.json']]);
    const written = JSON.parse(writes[0]?.contents ?? '') as { mcpServers: Record<string, { args?: string[] }> };
    expect(Object.keys(written.mcpServers)).toEqual(['github', 'memplane']);
    // The built bundle pins the MCP package to the plugin's own version, on the worker's data folder.
    expect(written.mcpServers.memplane?.args).toEqual(['-y', `@memplane/mcp@${version}`, '--data-dir', join(folder, '.memplane', 'paperclip')]);
    expect(await host.call('shutdown', {})).toMatchObject({ jsonrpc: '2.0' });
  }, 60_000);
});
