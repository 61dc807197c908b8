import { MemoryConfigurationError, MemoryError } from '@memplane/core';
import type { PluginContext } from '@paperclipai/plugin-sdk';
import type { UiMcpBridgeClient } from '../memory-ui-contract';
import { claudeCodeEntry, codexEntry, cursorEntry, mcpBridgeClients, type McpBridgeClient, type McpBridgeClientId } from './mcp-bridge-clients';
import type { BridgeFileState } from './mcp-bridge-file-state';
import { jsonBridgeFile } from './mcp-bridge-json-file';
import type { McpBridgeLaunch } from './mcp-bridge-launch';
import { tomlBridgeFile } from './mcp-bridge-toml-file';

/** The local folders API the installer uses (`ctx.localFolders`). */
export type LocalFolders = PluginContext['localFolders'];

/** One client as the settings page shows it. */
export type McpBridgeClientStatus = UiMcpBridgeClient;

/** The file a client needs, merged: its text, or why it cannot be. */
type Planned = { client: McpBridgeClient; write: (text: string | undefined) => string; inspect: (text: string | undefined) => BridgeFileState };

function planFor(client: McpBridgeClient, launch: McpBridgeLaunch): Planned | { client: McpBridgeClient; refusal: string } {
  if (client.format === 'toml') {
    const entry = codexEntry(launch);
    if ('refusal' in entry) return { client, refusal: entry.refusal };
    const file = tomlBridgeFile(client.relativePath);
    return { client, write: (text) => file.install(text, entry), inspect: (text) => file.inspect(text, entry) };
  }
  const entry = client.id === 'cursor' ? cursorEntry(launch) : claudeCodeEntry(launch);
  const file = jsonBridgeFile(client.relativePath);
  return { client, write: (text) => file.install(text, entry), inspect: (text) => file.inspect(text, entry) };
}

const removerFor = (client: McpBridgeClient) => (client.format === 'toml' ? tomlBridgeFile(client.relativePath) : jsonBridgeFile(client.relativePath));

/** Whether the file exists, walking down from the folder's root listing; a listing that fails throws. */
async function listed(folders: LocalFolders, companyId: string, client: McpBridgeClient): Promise<boolean> {
  let parent: string | null = null;
  for (const segment of client.relativePath.split('/')) {
    const path: string = parent === null ? segment : `${parent}/${segment}`;
    const listing = await folders.list(companyId, client.folderKey, { relativePath: parent });
    if (!listing.entries.some((entry) => entry.path === path)) return false;
    parent = path;
  }
  return true;
}

/**
 * The file's text, or undefined when there is none. A read that fails is "no file" only when the
 * folder's listing shows none; a file that is listed, or a listing that fails too, is an error:
 * the merge would otherwise overwrite what it could not read.
 */
async function readFile(folders: LocalFolders, companyId: string, client: McpBridgeClient): Promise<string | undefined> {
  try {
    return await folders.readText(companyId, client.folderKey, client.relativePath);
  } catch (cause) {
    let exists: boolean;
    try {
      exists = await listed(folders, companyId, client);
    } catch (listCause) {
      throw new MemoryConfigurationError({ message: `${client.relativePath} in the ${client.folderKey} folder can be neither read nor listed`, cause: listCause });
    }
    if (!exists) return undefined;
    throw new MemoryConfigurationError({ message: `${client.relativePath} in the ${client.folderKey} folder exists but cannot be read`, cause });
  }
}

const reasonOf = (error: unknown) => (MemoryError.isInstance(error) ? error.message : 'the host refused the folder');

/** The status of every client for one company: its folder, and its file against the entry the launch gives. */
export async function bridgeStatus(folders: LocalFolders, companyId: string, launch: McpBridgeLaunch | { refusal: string }): Promise<McpBridgeClientStatus[]> {
  return Promise.all(
    mcpBridgeClients.map(async (client) => {
      const status = await folders.status(companyId, client.folderKey);
      const base = {
        client: client.id,
        displayName: client.displayName,
        folderKey: client.folderKey,
        relativePath: client.relativePath,
        docs: client.docs,
        folder: { configured: status.configured, writable: status.writable, path: status.path, problems: status.problems.map((problem) => problem.message) },
      };
      if (!status.configured) return { ...base, file: { state: 'unavailable', reason: `the ${client.folderKey} folder is not configured for this company` } } as const;
      if ('refusal' in launch) return { ...base, file: { state: 'unavailable', reason: launch.refusal } } as const;
      const plan = planFor(client, launch);
      if ('refusal' in plan) return { ...base, file: { state: 'unavailable', reason: plan.refusal } } as const;
      try {
        return { ...base, file: plan.inspect(await readFile(folders, companyId, client)) };
      } catch (error) {
        return { ...base, file: { state: 'unavailable', reason: reasonOf(error) } } as const;
      }
    }),
  );
}

/** The clients a call names, or every client whose folder the company configured. */
async function chosenClients(folders: LocalFolders, companyId: string, requested: readonly McpBridgeClientId[] | undefined): Promise<McpBridgeClient[]> {
  if (requested !== undefined) return mcpBridgeClients.filter((client) => requested.includes(client.id));
  const configured = await Promise.all(mcpBridgeClients.map(async (client) => (await folders.status(companyId, client.folderKey)).configured));
  return mcpBridgeClients.filter((_, index) => configured[index]);
}

async function requireWritable(folders: LocalFolders, companyId: string, client: McpBridgeClient): Promise<void> {
  const status = await folders.status(companyId, client.folderKey);
  // The host's writeTextAtomic may configure a folder on first write; the bridge writes only where the company chose.
  if (!status.configured) throw new MemoryConfigurationError({ message: `${client.displayName}: the ${client.folderKey} folder is not configured for this company in Paperclip` });
  if (!status.readable || !status.writable || status.access !== 'readWrite') throw new MemoryConfigurationError({ message: `${client.displayName}: the ${client.folderKey} folder is not readable and writable` });
}

/** What an install or a remove did, per client. */
export interface McpBridgeChange {
  client: McpBridgeClientId;
  relativePath: string;
  /** `written`: the file now holds the entry (or no longer does); `unchanged`: nothing to do. */
  result: 'written' | 'unchanged';
}

/**
 * Writes the `memplane` server into each chosen client's file. Every file is read and merged
 * first; if any client is refused (folder not configured or not writable, invalid file, a
 * `memplane` entry the plugin did not write), the call throws and no file is written.
 */
export async function installBridge(folders: LocalFolders, companyId: string, launch: McpBridgeLaunch, requested?: readonly McpBridgeClientId[]): Promise<McpBridgeChange[]> {
  const clients = await chosenClients(folders, companyId, requested);
  if (clients.length === 0) throw new MemoryConfigurationError({ message: 'No agent folder is configured for this company: configure the agent-workspace or codex-home folder in Paperclip first' });
  const writes: Array<{ client: McpBridgeClient; before: string | undefined; after: string }> = [];
  for (const client of clients) {
    await requireWritable(folders, companyId, client);
    const plan = planFor(client, launch);
    if ('refusal' in plan) throw new MemoryConfigurationError({ message: `${client.displayName}: ${plan.refusal}` });
    const before = await readFile(folders, companyId, client);
    writes.push({ client, before, after: plan.write(before) });
  }
  const changes: McpBridgeChange[] = [];
  for (const { client, before, after } of writes) {
    if (before !== after) await folders.writeTextAtomic(companyId, client.folderKey, client.relativePath, after);
    changes.push({ client: client.id, relativePath: client.relativePath, result: before === after ? 'unchanged' : 'written' });
  }
  return changes;
}

/** Removes the plugin's `memplane` entry from each chosen client's file, keeping everything else; all files are checked before any is written. */
export async function removeBridge(folders: LocalFolders, companyId: string, requested?: readonly McpBridgeClientId[]): Promise<McpBridgeChange[]> {
  const clients = await chosenClients(folders, companyId, requested);
  const writes: Array<{ client: McpBridgeClient; after: string | undefined }> = [];
  for (const client of clients) {
    const before = await readFile(folders, companyId, client);
    const after = removerFor(client).remove(before);
    if (after !== undefined) await requireWritable(folders, companyId, client);
    writes.push({ client, after });
  }
  const changes: McpBridgeChange[] = [];
  for (const { client, after } of writes) {
    if (after !== undefined) await folders.writeTextAtomic(companyId, client.folderKey, client.relativePath, after);
    changes.push({ client: client.id, relativePath: client.relativePath, result: after === undefined ? 'unchanged' : 'written' });
  }
  return changes;
}
