import { join } from 'node:path';
import type { MemoryAdapter } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemplanePaperclipPlugin } from './memplane-paperclip-plugin';
import { comment, commentEvent, company, createDownProvider, issue, runEvent } from './test-support/paperclip-fixtures';
import { startWorker, workerModes, type StartedWorker } from './test-support/worker-harness';
import { filesUnder } from './test-support/files-under';

const markdownCompany = (hooks: Record<string, boolean> = {}) => ({ bindings: [{ key: 'default', providerId: 'markdown', hooks }], default: 'default' });
const run = (companyId: string, agentId: string, runId: string) => ({ companyId, agentId, runId, projectId: `${companyId}-project` });

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});


describe.each(workerModes)('with the service in %s mode', (mode) => {
  describe('two companies in one worker', () => {
    it('never see each other: not through search, hydration, the log or the files', async () => {
      worker = await startWorker({ acme: markdownCompany({ issueCommentCapture: true }), globex: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      harness.seed({
        companies: [company('acme'), company('globex')],
        issues: [issue('acme', 'a-1', 'Launch', 'Launch prep'), issue('globex', 'g-1', 'Bluebird launch', 'What is the Bluebird launch date?')],
        issueComments: [comment('acme', 'a-1', 'a-c1', 'The Bluebird launch date is March 3.', { agentId: 'planner', runId: 'a-run' })],
      });
      await harness.executeTool('memory_note', { text: 'Bluebird is the secret launch codename.' }, run('acme', 'planner', 'a-run'));
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'a-1', { commentId: 'a-c1', agentId: 'planner', runId: 'a-run' }));
      expect((await harness.executeTool('memory_search', { query: 'Bluebird launch' }, run('acme', 'planner', 'a-run-2'))).content).toContain('Bluebird');

      const search = await harness.executeTool('memory_search', { query: 'Bluebird launch codename', reach: 'company' }, run('globex', 'planner', 'g-run'));
      expect(search.error).toBeUndefined();
      expect(search.content).toBe('No memories matched.');
      await harness.emit('agent.run.started', ...runEvent('globex', { runId: 'g-run-2', agentId: 'planner', issueId: 'g-1' }));
      const cached = (await harness.ctx.state.get({ scopeKind: 'run', scopeId: 'g-run-2', namespace: 'memplane', stateKey: 'hydration' })) as { preamble: string };
      expect(cached.preamble).toBe('');
      expect(await harness.ctx.issues.documents.get('g-1', 'memplane-memory', 'globex')).toBeNull();

      const globexOperations = await worker.operations('globex');
      expect(globexOperations.length).toBeGreaterThan(0);
      expect(globexOperations.every((entry) => entry.companyId === 'globex' && entry.scope.companyId === 'globex')).toBe(true);
      expect(await filesUnder(join(worker.folder, 'markdown', 'acme'))).toContain('Bluebird');
      expect(await filesUnder(join(worker.folder, 'markdown', 'globex'))).not.toContain('Bluebird');
    });

    it('refuses a tool call whose parameters name another company, logs the refusal in the caller company and writes nothing', async () => {
      worker = await startWorker({ acme: markdownCompany(), globex: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme'), company('globex')] });
      await harness.executeTool('memory_note', { text: 'Globex pricing is 40 per seat.' }, run('globex', 'seller', 'g-run'));

      const search = await harness.executeTool('memory_search', { query: 'pricing', companyId: 'globex' }, run('acme', 'spy', 'a-run'));
      expect(search.error).toMatch(/^MEMORY_VALIDATION/);
      expect(search.content).toBeUndefined();
      const note = await harness.executeTool('memory_note', { text: 'planted', companyId: 'globex', agentId: 'seller' }, run('acme', 'spy', 'a-run'));
      expect(note.error).toMatch(/^MEMORY_VALIDATION/);

      const refused = (await worker.operations('acme', { runId: 'a-run' })).map((entry) => ({ operation: entry.operation, status: entry.status, fields: entry.details?.refusedFields }));
      // Over HTTP the worker logs the refusal on memplane serve (POST memory/refused-calls), field names only.
      expect(refused).toEqual([
        { operation: 'query', status: 'failed', fields: ['companyId'] },
        { operation: 'record_upsert', status: 'failed', fields: expect.arrayContaining(['companyId', 'agentId']) },
      ]);
      expect(JSON.stringify(harness.logs)).not.toContain('planted');
      expect(JSON.stringify(await worker.operations('acme'))).not.toContain('planted');
      const globexWrites = (await worker.operations('globex')).filter((entry) => entry.operation === 'record_upsert');
      expect(globexWrites).toHaveLength(1);
      expect(await filesUnder(join(worker.folder, 'markdown', 'globex'))).not.toContain('planted');
    });
  });

  describe('two agents of one company', () => {
    it('an agent reads its own notes, never another agent\'s, through memory_search', async () => {
      worker = await startWorker({ acme: markdownCompany() }, {}, undefined, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme')] });
      expect((await harness.executeTool('memory_note', { text: 'The planner keeps the launch password hint: teal walrus.' }, run('acme', 'planner', 'p-run'))).error).toBeUndefined();
      expect((await harness.executeTool('memory_search', { query: 'launch password hint' }, run('acme', 'planner', 'p-run-2'))).content).toContain('teal walrus');
      for (const reach of [undefined, 'company', 'agent'] as const) {
        const search = await harness.executeTool('memory_search', { query: 'launch password hint', ...(reach === undefined ? {} : { reach }) }, run('acme', 'builder', 'b-run'));
        expect(search.error).toBeUndefined();
        expect(search.content).not.toContain('teal walrus');
      }
    });
  });

  describe('an agent\'s own memory and the issue document', () => {
    it('puts only company-shared memory in the issue document every member reads; the agent\'s own note reaches its own preamble only', async () => {
      worker = await startWorker({ acme: markdownCompany({ issueCommentCapture: true }) }, {}, undefined, mode);
      const { harness } = worker;
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Launch password hint', 'Where the launch password hint is kept')],
        issueComments: [comment('acme', 'iss-1', 'cmt-1', 'The launch password hint is in the vault.', { userId: 'board' })],
      });
      expect((await harness.executeTool('memory_note', { text: 'The planner keeps the launch password hint: teal walrus.' }, run('acme', 'planner', 'p-run'))).error).toBeUndefined();
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1' }, 'evt-shared'));
      await harness.emit('agent.run.started', ...runEvent('acme', { runId: 'p-run-2', agentId: 'planner', issueId: 'iss-1' }));
      const own = await harness.executeTool('memory_search', { query: 'launch password hint' }, run('acme', 'planner', 'p-run-2'));
      expect(own.content).toContain('teal walrus');
      // The document is read by the board and by every agent working on the issue.
      const document = await harness.ctx.issues.documents.get('iss-1', 'memplane-memory', 'acme');
      expect(document?.body ?? '').not.toContain('teal walrus');
      expect(document?.body ?? '').toContain('launch password hint is in the vault');
    });
  });

  describe('a failing provider', () => {
    it('is logged as failed operations without breaking the event handlers, and a redelivered capture tries again', async () => {
      const down = createDownProvider();
      worker = await startWorker(
        { acme: { bindings: [{ key: 'down', providerId: 'down', hooks: { issueCommentCapture: true } }], default: 'down' } },
        { providers: [down.factory] },
        undefined,
        mode,
      );
      const { harness } = worker;
      harness.seed({
        companies: [company('acme')],
        issues: [issue('acme', 'iss-1', 'Outage', 'The backend is down')],
        issueComments: [comment('acme', 'iss-1', 'cmt-1', 'Keep this decision.', { agentId: 'planner', runId: 'run-1' })],
      });
      await expect(harness.emit('agent.run.started', ...runEvent('acme', { runId: 'run-1', agentId: 'planner', issueId: 'iss-1' }))).resolves.toBeUndefined();
      await expect(harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1', agentId: 'planner', runId: 'run-1' }, 'evt-1'))).resolves.toBeUndefined();
      const callsAfterFirst = down.calls();
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1', agentId: 'planner', runId: 'run-1' }, 'evt-1'));
      expect(down.calls()).toBeGreaterThan(callsAfterFirst);

      const cached = (await harness.ctx.state.get({ scopeKind: 'run', scopeId: 'run-1', namespace: 'memplane', stateKey: 'hydration' })) as { preamble: string };
      expect(cached.preamble).toBe('');
      const search = await harness.executeTool('memory_search', { query: 'decision' }, run('acme', 'planner', 'run-1'));
      expect(search.error).toMatch(/^MEMORY_API_CALL/);

      const operations = await worker.operations('acme');
      expect(operations.map((entry) => [entry.operation, entry.hookKind ?? 'tool', entry.status, entry.errorCode])).toEqual([
        ['query', 'pre_run_hydrate', 'failed', 'MEMORY_API_CALL'],
        ['capture', 'issue_comment_capture', 'failed', 'MEMORY_API_CALL'],
        ['capture', 'issue_comment_capture', 'failed', 'MEMORY_API_CALL'],
        ['query', 'tool', 'failed', 'MEMORY_API_CALL'],
      ]);
      expect(harness.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('logs a config that cannot be applied instead of throwing at the host, and tries it again on the next event', async () => {
      worker = await startWorker({ acme: { bindings: [{ key: 'x', providerId: 'not-installed' }], default: 'x' } }, {}, undefined, mode);
      const { harness } = worker;
      harness.seed({ companies: [company('acme')], issues: [issue('acme', 'iss-1', 'T', 'D')], issueComments: [comment('acme', 'iss-1', 'cmt-1', 'body', { userId: 'u' })] });
      await expect(harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1' }))).resolves.toBeUndefined();
      await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'cmt-1' }));
      const failures = harness.logs.filter((entry) => entry.level === 'error' && entry.message === 'memplane: event handler failed');
      expect(failures).toHaveLength(2);
      const tool = await harness.executeTool('memory_search', { query: 'x' }, run('acme', 'planner', 'r'));
      expect(tool.error).toMatch(/^MEMORY_/);
    });
  });
});

// Binding secrets resolve through Paperclip only when the service runs in the worker; a memplane serve resolves its own.
describe('config and secrets', () => {
  it('validates a company config with errors that name the field', async () => {
    const plugin = createMemplanePaperclipPlugin();
    expect(await plugin.definition.onValidateConfig?.(markdownCompany())).toEqual({ ok: true });
    const bad = await plugin.definition.onValidateConfig?.({ bindings: [{ key: '', providerId: 'markdown' }], apiKey: 'sk-live' });
    expect(bad?.ok).toBe(false);
    expect(bad?.errors?.join('\n')).toContain('config.bindings.0.key');
    expect(bad?.errors?.join('\n')).not.toContain('sk-live');
    // The old per-company nesting is not a company config any more.
    expect((await plugin.definition.onValidateConfig?.({ companies: { acme: markdownCompany() } }))?.ok).toBe(false);
  });

  it('refuses a { $secret } reference wherever it stands, naming the field and the secret_ref shape to use', async () => {
    const plugin = createMemplanePaperclipPlugin();
    const legacy = { $secret: { key: 'serve-token' } };
    const answers = await Promise.all([
      plugin.definition.onValidateConfig?.({ bindings: [{ key: 'hosted', providerId: 'mem0', config: { apiKey: legacy } }], default: 'hosted' }),
      plugin.definition.onValidateConfig?.({ service: { mode: 'http', url: 'https://memory.example.com', token: legacy } }),
      plugin.definition.onValidateConfig?.({ storage: { postgres: { connectionString: legacy } } }),
    ]);
    const fields = ['config.bindings.0.config.apiKey', 'config.service.token', 'config.storage.postgres.connectionString'];
    for (const [index, answer] of answers.entries()) {
      expect(answer?.ok).toBe(false);
      const text = answer?.errors?.join('\n') ?? '';
      expect(text).toContain(`${fields[index]}:`);
      expect(text).toMatch(/"type": "secret_ref", "secretId"/);
    }
    // With a memplane serve, a binding's config is the server's: its own $secret form is what it resolves, a secret_ref never.
    const server = { mode: 'http', url: 'https://memory.example.com', token: { type: 'secret_ref', secretId: '3f9a2b1c-5d4e-4f6a-8b7c-0d1e2f3a4b5c' } };
    expect(await plugin.definition.onValidateConfig?.({ service: server, bindings: [{ key: 'hosted', providerId: 'mem0', config: { apiKey: { $secret: { env: 'MEM0_API_KEY' } } } }] })).toEqual({ ok: true });
    const forServer = await plugin.definition.onValidateConfig?.({ service: server, bindings: [{ key: 'hosted', providerId: 'mem0', config: { apiKey: { type: 'secret_ref', secretId: '3f9a2b1c-5d4e-4f6a-8b7c-0d1e2f3a4b5c' } } }] });
    expect(forServer?.errors).toEqual([expect.stringMatching(/^config\.bindings\.0\.config\.apiKey: is a Paperclip secret_ref, which a memplane serve cannot resolve/)]);
    // The worker refuses it too when it reads a saved config that carries one (no binding is made).
    worker = await startWorker({ globex: markdownCompany() }, {}, undefined, 'worker');
    await worker.config.save('acme', { bindings: [{ key: 'hosted', providerId: 'markdown', config: { token: legacy } }], default: 'hosted' }).catch(() => undefined);
    await expect(worker.plugin.companyConfig('acme')).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', message: expect.stringContaining('bindings.0.config.token') });
    expect(await worker.service.control({ actor: { kind: 'system', component: 'test' }, companyId: 'acme' }).listBindings()).toEqual([]);
  });

  it('resolves a binding secret through Paperclip secrets for the binding company, and never stores the value', async () => {
    const seen: Array<{ config: Record<string, unknown>; companyId: string }> = [];
    const recording = {
      providerId: 'recording',
      description: 'Records the config it is built with (test only).',
      secretFields: ['apiKey'],
      capabilities: {},
      create: (config: Record<string, unknown>, context: { companyId: string }) => {
        seen.push({ config, companyId: context.companyId });
        return {} as MemoryAdapter;
      },
    };
    const resolutions: unknown[] = [];
    const secretId = '3f9a2b1c-5d4e-4f6a-8b7c-0d1e2f3a4b5c';
    worker = await startWorker(
      { acme: { bindings: [{ key: 'hosted', providerId: 'recording', config: { apiKey: { type: 'secret_ref', secretId } } }], default: 'hosted' } },
      { providers: [recording] },
      (harness) => {
        harness.ctx.secrets.resolve = async (reference, options) => {
          resolutions.push({ reference, options });
          return 'sk-acme-value';
        };
      },
    );
    const { harness } = worker;
    await harness.emit('issue.comment.created', ...commentEvent('acme', 'iss-1', { commentId: 'none' }));
    // The host finds the binding by the company and the config path the secret_ref was saved at.
    expect(resolutions).toContainEqual({ reference: { type: 'secret_ref', secretId, version: 'latest' }, options: { companyId: 'acme', configPath: 'bindings.0.config.apiKey' } });
    const binding = await worker.service.control({ actor: { kind: 'system', component: 'test' }, companyId: 'acme' }).getBinding('hosted');
    expect(JSON.stringify(binding)).not.toContain('sk-acme-value');
    await worker.service.flush();
    expect(await filesUnder(worker.folder)).not.toContain('sk-acme-value');
  });
});
