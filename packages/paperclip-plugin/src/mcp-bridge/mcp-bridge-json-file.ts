import { bridgeMarkerValue, bridgeMarkerVariable, bridgeServerName, type JsonServerEntry } from './mcp-bridge-clients';
import { conflict, type BridgeFileFormat, type BridgeFileState } from './mcp-bridge-file-state';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An `mcpServers` file, parsed, or why it cannot be merged. */
type Parsed = { document: JsonObject; servers: JsonObject | undefined } | { reason: string };

function parse(text: string): Parsed {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // The parser's message may quote the file; the reason never does.
    return { reason: 'is not valid JSON (comments and trailing commas included)' };
  }
  if (!isObject(document)) return { reason: 'is not a JSON object' };
  const servers = Object.hasOwn(document, 'mcpServers') ? document.mcpServers : undefined;
  if (servers !== undefined && !isObject(servers)) return { reason: 'has an mcpServers that is not an object' };
  return { document, servers };
}

/** Whether an entry carries the plugin's marker. */
const isOurs = (entry: unknown): boolean => isObject(entry) && isObject(entry.env) && entry.env[bridgeMarkerVariable] === bridgeMarkerValue;

const serialise = (document: JsonObject): string => `${JSON.stringify(document, null, 2)}\n`;

/** Deep equality of JSON values, key order included (so a reordered entry counts as outdated and is rewritten). */
const sameJson = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right);

/**
 * The `mcpServers` JSON files of Claude Code and Cursor. The whole file is parsed and written back
 * with two-space indentation: every other server and top-level key is kept, in its order; only
 * `mcpServers.memplane` is added, replaced or removed, and only when it is the plugin's own.
 */
export function jsonBridgeFile(file: string): BridgeFileFormat<JsonServerEntry> {
  const owned = (text: string): { document: JsonObject; servers: JsonObject | undefined; entry: unknown } => {
    const parsed = parse(text);
    if ('reason' in parsed) throw conflict(file, parsed.reason);
    const entry = parsed.servers !== undefined && Object.hasOwn(parsed.servers, bridgeServerName) ? parsed.servers[bridgeServerName] : undefined;
    if (entry !== undefined && !isOurs(entry)) throw conflict(file, `already has a "${bridgeServerName}" server the plugin did not write`);
    return { ...parsed, entry };
  };
  return {
    inspect(text, desired): BridgeFileState {
      if (text === undefined) return { state: 'absent' };
      try {
        const { entry } = owned(text);
        if (entry === undefined) return { state: 'not-installed' };
        return sameJson(entry, desired) ? { state: 'installed' } : { state: 'outdated' };
      } catch (error) {
        return { state: 'conflict', reason: (error as Error).message };
      }
    },
    install(text, desired) {
      if (text === undefined) return serialise({ mcpServers: { [bridgeServerName]: desired } });
      const { document, servers } = owned(text);
      document.mcpServers = { ...(servers ?? {}), [bridgeServerName]: desired };
      // Replacing keeps the entry's place among the servers; a new one goes last.
      if (servers !== undefined && Object.hasOwn(servers, bridgeServerName)) {
        servers[bridgeServerName] = desired;
        document.mcpServers = servers;
      }
      return serialise(document);
    },
    remove(text) {
      if (text === undefined) return undefined;
      const parsed = parse(text);
      if ('reason' in parsed) throw conflict(file, parsed.reason);
      // Someone else's "memplane" is not the plugin's to remove: left as it is.
      if (parsed.servers === undefined || !Object.hasOwn(parsed.servers, bridgeServerName) || !isOurs(parsed.servers[bridgeServerName])) return undefined;
      delete parsed.servers[bridgeServerName];
      return serialise(parsed.document);
    },
  };
}
