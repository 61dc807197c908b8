import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UiIssueMemoryData, UiMcpBridgeData, UiSettingsData } from '../memory-ui-contract';

// The host's bridge exists only inside Paperclip: the test plays it, recording what the slots ask for.
const bridge = vi.hoisted(() => ({
  asked: [] as Array<{ key: string; params: unknown }>,
  actions: [] as string[],
  answer: { data: null as unknown, loading: false, error: null as { message: string } | null },
  /** Answers for one key, over `answer`. */
  byKey: {} as Record<string, { data: unknown; loading: boolean; error: { message: string } | null }>,
}));
vi.mock('@paperclipai/plugin-sdk/ui', () => ({
  usePluginData: (key: string, params: unknown) => {
    bridge.asked.push({ key, params });
    return { ...(bridge.byKey[key] ?? bridge.answer), refresh: () => undefined };
  },
  usePluginAction: (key: string) => {
    bridge.actions.push(key);
    return async () => undefined;
  },
  useHostNavigation: () => ({ linkProps: (to: string) => ({ href: `/ACME${to}`, onClick: () => undefined }) }),
  StatusBadge: ({ label, status }: { label: string; status: string }) => createElement('span', { 'data-status': status }, label),
}));

const { IssueMemoryTab, MemorySettingsPage } = await import('./index');

const hostContext = { companyId: 'acme', companyPrefix: 'ACME', projectId: null, entityId: 'iss-1', entityType: 'issue', userId: 'u1' };

beforeEach(() => {
  bridge.asked.length = 0;
  bridge.actions.length = 0;
  bridge.answer = { data: null, loading: false, error: null };
  bridge.byKey = {};
});

describe('the issue tab', () => {
  it('asks the worker for this issue and shows records with backlinks and operations', () => {
    const data: UiIssueMemoryData = {
      issueId: 'iss-1',
      unbound: false,
      records: [
        { recordId: 'markdown:r1', text: 'Deploy on Tuesdays <script>alert(1)</script>', source: { kind: 'issue_comment', issueId: 'iss-1', commentId: 'c1', runId: 'run-7' } },
      ],
      operations: [
        { id: 'op_1', operation: 'capture', status: 'failed', errorCode: 'MEMORY_API_CALL', hookKind: 'issue_comment_capture', bindingKey: 'default', agentId: 'planner', latencyMs: 12, createdAt: '2026-11-24T10:00:00.000Z' },
      ],
    };
    bridge.answer.data = data;
    const html = renderToStaticMarkup(createElement(IssueMemoryTab, { context: hostContext }));
    expect(bridge.asked).toEqual([{ key: 'memplane.issue-memory', params: { companyId: 'acme', issueId: 'iss-1' } }]);
    expect(html).toContain('Deploy on Tuesdays &lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="/ACME/issues/iss-1"');
    expect(html).toContain('href="/ACME/issues/iss-1#comment-c1"');
    expect(html).toContain('run run-7');
    expect(html).toContain('markdown:r1');
    expect(html).toMatch(/data-status="error">failed MEMORY_API_CALL/);
    expect(html).toContain('capture (issue_comment_capture)');
  });

  it('links the operations to the memplane inspector when the worker names one, and never to a URL that is not http(s)', () => {
    const base: UiIssueMemoryData = { issueId: 'iss-1', unbound: false, records: [], operations: [] };
    bridge.answer.data = base;
    expect(renderToStaticMarkup(createElement(IssueMemoryTab, { context: hostContext }))).not.toContain('memplane inspector');
    bridge.answer.data = { ...base, inspectorUrl: 'https://memory.example.com/#/acme/operations?issueId=iss-1' };
    expect(renderToStaticMarkup(createElement(IssueMemoryTab, { context: hostContext }))).toContain(
      '<a href="https://memory.example.com/#/acme/operations?issueId=iss-1" target="_blank" rel="noopener noreferrer">Open this issue&#x27;s operations in the memplane inspector</a>',
    );
    bridge.answer.data = { ...base, inspectorUrl: 'javascript:alert(1)' };
    expect(renderToStaticMarkup(createElement(IssueMemoryTab, { context: hostContext }))).not.toContain('javascript:');
  });

  it('says so when the bridge fails, and when the company has no binding', () => {
    bridge.answer.error = { message: 'MEMORY_VALIDATION: issueId' };
    expect(renderToStaticMarkup(createElement(IssueMemoryTab, { context: hostContext }))).toContain('role="alert"');
    bridge.answer = { data: { issueId: 'iss-1', unbound: true, records: [], operations: [] }, loading: false, error: null };
    expect(renderToStaticMarkup(createElement(IssueMemoryTab, { context: hostContext }))).toContain('no memory binding yet');
  });
});

describe('the settings page', () => {
  it('shows bindings with their capture opt-ins, the default, agent overrides and counts', () => {
    const data: UiSettingsData = {
      companyId: 'acme',
      bindings: [
        { key: 'default', providerId: 'markdown', enabled: true, hooks: { postRunCapture: false, issueCommentCapture: true, issueDocumentCapture: false }, config: {}, revision: 1, updatedAt: '2026-11-24T10:00:00.000Z' },
      ],
      targets: [
        { targetType: 'company', bindingKey: 'default' },
        { targetType: 'agent', agentId: 'planner', bindingKey: 'default' },
      ],
      counts: [{ bindingKey: 'default', total: 9, succeeded: 7, failed: 2 }],
    };
    bridge.answer.data = data;
    bridge.byKey['memplane.mcp-bridge'] = { data: null, loading: false, error: null };
    const html = renderToStaticMarkup(createElement(MemorySettingsPage, { context: { ...hostContext, entityId: null, entityType: null } }));
    expect(bridge.asked).toEqual([
      { key: 'memplane.settings', params: { companyId: 'acme' } },
      { key: 'memplane.mcp-bridge', params: { companyId: 'acme' } },
    ]);
    expect(html).toContain('<td>markdown</td><td>on</td><td>off</td><td>on</td><td>off</td><td>9 (2)</td>');
    expect(html).toContain('Company default: <code>default</code>');
    expect(html).toContain('Agent planner: <code>default</code>');
  });

  it('shows the MCP bridge: the command, each client folder and file state with its conflict, and the install and remove actions', () => {
    const settings: UiSettingsData = { companyId: 'acme', bindings: [], targets: [], counts: [] };
    const folder = { configured: true, writable: true, path: '/agents/acme', problems: [] };
    const mcpBridge: UiMcpBridgeData = {
      companyId: 'acme',
      launch: { command: 'npx', args: ['-y', '@memplane/mcp@1.0.0', '--data-dir', '/srv/memplane'] },
      clients: [
        { client: 'claude-code', displayName: 'Claude Code', folderKey: 'agent-workspace', relativePath: '.mcp.json', docs: '', folder, file: { state: 'installed' } },
        { client: 'cursor', displayName: 'Cursor', folderKey: 'agent-workspace', relativePath: '.cursor/mcp.json', docs: '', folder, file: { state: 'conflict', reason: '.cursor/mcp.json: is not valid JSON <b>' } },
        { client: 'codex', displayName: 'Codex', folderKey: 'codex-home', relativePath: 'config.toml', docs: '', folder: { ...folder, configured: false, path: null }, file: { state: 'unavailable', reason: 'not configured' } },
      ],
    };
    bridge.byKey = { 'memplane.settings': { data: settings, loading: false, error: null }, 'memplane.mcp-bridge': { data: mcpBridge, loading: false, error: null } };
    const page = () => renderToStaticMarkup(createElement(MemorySettingsPage, { context: { ...hostContext, entityId: null, entityType: null } }));
    const html = page();
    expect(html).toContain('<code>npx -y @memplane/mcp@1.0.0 --data-dir /srv/memplane</code>');
    expect(html).toContain('<td>Claude Code</td><td><code>.mcp.json</code></td><td><code>/agents/acme</code></td><td>installed</td>');
    expect(html).toContain('conflict: .cursor/mcp.json: is not valid JSON &lt;b&gt;');
    expect(html).toContain('codex-home: not configured');
    expect(bridge.actions).toEqual(['memplane.mcp-bridge.install', 'memplane.mcp-bridge.remove']);
    bridge.byKey['memplane.mcp-bridge'] = { data: { ...mcpBridge, launch: { refusal: 'set mcpBridge.target' } }, loading: false, error: null };
    expect(page()).toContain('<p role="alert">No bridge can be written: set mcpBridge.target</p>');
  });
});
