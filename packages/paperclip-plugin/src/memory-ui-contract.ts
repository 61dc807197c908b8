// What the worker's UI data handlers return and the UI renders: one contract, type-only on the
// UI side, so the bundle never pulls worker code into the browser.

import type { BridgeFileState } from './mcp-bridge/mcp-bridge-file-state';

/** The data keys the worker registers (`ctx.data.register`) and the UI reads (`usePluginData`). */
export const memoryUiDataKeys = {
  /** The company's bindings, targets and operation counts: the settings page. */
  settings: 'memplane.settings',
  /** One issue's memory operations and records: the issue tab. */
  issue: 'memplane.issue-memory',
  /** The MCP bridge: the command it writes and each client's folder and file. */
  mcpBridge: 'memplane.mcp-bridge',
} as const;

/** The actions the settings page calls (`usePluginAction`); only an owner or admin of the company may. */
export const memoryUiActionKeys = {
  /** Writes the `memplane` MCP server into the clients' files (`{ clients?: ['claude-code' | 'cursor' | 'codex'] }`). */
  installMcpBridge: 'memplane.mcp-bridge.install',
  /** Removes the plugin's `memplane` entry from them, keeping everything else. */
  removeMcpBridge: 'memplane.mcp-bridge.remove',
} as const;

/** One binding as the settings page shows it. Its config holds secret references only, never values. */
export interface UiBinding {
  key: string;
  providerId: string;
  enabled: boolean;
  hooks: { postRunCapture: boolean; issueCommentCapture: boolean; issueDocumentCapture: boolean };
  config: Record<string, unknown>;
  revision: number;
  updatedAt: string;
}

/** A target: the company default, or one agent's override, and the binding key it points at. */
export interface UiTarget {
  targetType: 'company' | 'agent';
  /** The agent id of an override; absent for the company default. */
  agentId?: string;
  bindingKey: string;
}

/** Operation counts of one binding. */
export interface UiBindingCounts {
  bindingKey: string;
  total: number;
  succeeded: number;
  failed: number;
}

/** The settings page data of one company. */
export interface UiSettingsData {
  companyId: string;
  bindings: UiBinding[];
  targets: UiTarget[];
  counts: UiBindingCounts[];
}

/** Where a record or operation came from, for backlinks into Paperclip. */
export interface UiSource {
  kind: string;
  issueId?: string;
  commentId?: string;
  documentKey?: string;
  runId?: string;
}

/** One memory operation on the issue. */
export interface UiOperation {
  id: string;
  operation: string;
  status: 'succeeded' | 'failed';
  errorCode?: string;
  bindingKey?: string;
  providerId?: string;
  hookKind?: string;
  agentId?: string;
  runId?: string;
  source?: UiSource;
  resultCount?: number;
  latencyMs: number;
  createdAt: string;
}

/** One record written for the issue. */
export interface UiRecord {
  /** The id the memory tools take (`provider:id`). */
  recordId: string;
  text: string;
  source?: UiSource;
  createdAt?: string;
}

/** The issue tab data. */
export interface UiIssueMemoryData {
  issueId: string;
  operations: UiOperation[];
  records: UiRecord[];
  /** True when the company has no binding yet (nothing to list records from). */
  unbound: boolean;
  /** The memplane inspector's operations page filtered to this issue, when an inspector is configured. */
  inspectorUrl?: string;
}

/** One MCP client of the bridge: its folder and what its file holds. */
export interface UiMcpBridgeClient {
  client: 'claude-code' | 'cursor' | 'codex';
  displayName: string;
  folderKey: string;
  relativePath: string;
  /** The client's documentation of the file. */
  docs: string;
  /** Whether the company configured the folder in Paperclip, and it can be written. */
  folder: { configured: boolean; writable: boolean; path: string | null; problems: string[] };
  /** What the file holds; `unavailable` when the folder is not configured or the launch is refused. */
  file: BridgeFileState | { state: 'unavailable'; reason: string };
}

/** The MCP bridge section of the settings page. */
export interface UiMcpBridgeData {
  companyId: string;
  /** The command every entry runs (no secret: a Postgres URL is named by its variable), or why none can be written. */
  launch: { command: string; args: string[]; postgresUrlVariable?: string } | { refusal: string };
  clients: UiMcpBridgeClient[];
}
