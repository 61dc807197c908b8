import { parse } from 'smol-toml';
import { bridgeServerName, type TomlServerEntry } from './mcp-bridge-clients';
import { conflict, type BridgeFileFormat, type BridgeFileState } from './mcp-bridge-file-state';

/** The first line of the block the plugin owns in a Codex `config.toml`. */
export const tomlBlockStart = '# >>> memplane MCP bridge (written by the memplane Paperclip plugin; replaced on install, removed on remove) >>>';
/** The last line of that block. */
export const tomlBlockEnd = '# <<< memplane MCP bridge <<<';

// TOML basic strings take JSON's escapes except `\/`, which JSON.stringify never writes; a value
// TOML cannot hold (a lone surrogate) fails the re-parse below and is refused.
const tomlString = (value: string) => JSON.stringify(value);
const tomlArray = (values: readonly string[]) => `[${values.map(tomlString).join(', ')}]`;

/** The managed block for an entry: the table and nothing else, between the two marker lines. */
export function tomlBlock(entry: TomlServerEntry): string[] {
  const env = Object.entries(entry.env).map(([key, value]) => `${tomlString(key)} = ${tomlString(value)}`);
  return [
    tomlBlockStart,
    `[mcp_servers.${bridgeServerName}]`,
    `command = ${tomlString(entry.command)}`,
    `args = ${tomlArray(entry.args)}`,
    `env = { ${env.join(', ')} }`,
    `env_vars = ${tomlArray(entry.env_vars)}`,
    tomlBlockEnd,
  ];
}

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `mcp_servers.memplane` value of a parsed file, or undefined. */
function memplaneTable(document: Table): unknown {
  const servers = document.mcp_servers;
  return isTable(servers) && Object.hasOwn(servers, bridgeServerName) ? servers[bridgeServerName] : undefined;
}

/** A file as lines, with where the managed block sits (inclusive), or why it cannot be merged. */
type Read = { lines: string[]; block: { start: number; end: number } | undefined; document: Table } | { reason: string };

function read(text: string): Read {
  let document: Table;
  try {
    document = parse(text) as Table;
  } catch {
    // smol-toml's message quotes the offending line, which may hold a secret of the user's: not repeated.
    return { reason: 'is not valid TOML' };
  }
  const lines = text.split('\n');
  const starts = lines.flatMap((line, index) => (line.trimEnd() === tomlBlockStart ? [index] : []));
  const ends = lines.flatMap((line, index) => (line.trimEnd() === tomlBlockEnd ? [index] : []));
  if (starts.length > 1 || ends.length > 1 || starts.length !== ends.length) return { reason: 'has a damaged memplane bridge block (its marker lines do not pair up)' };
  const [start] = starts;
  const [end] = ends;
  const block = start === undefined || end === undefined ? undefined : { start, end };
  if (block !== undefined && block.start > block.end) return { reason: 'has a damaged memplane bridge block (its end comes before its start)' };
  const table = memplaneTable(document);
  if (block === undefined && table !== undefined) return { reason: `already has an [mcp_servers.${bridgeServerName}] the plugin did not write` };
  if (block !== undefined && table === undefined) return { reason: 'has a memplane bridge block that no longer defines the server (edited by hand)' };
  return { lines, block, document };
}

/** Whether a parsed table is exactly the entry (the re-parse check after writing). */
const holds = (text: string, entry: TomlServerEntry): boolean => {
  try {
    return JSON.stringify(memplaneTable(parse(text) as Table)) === JSON.stringify(entry);
  } catch {
    return false;
  }
};

/**
 * Codex's `config.toml`. The file is parsed (smol-toml) to find conflicts but never re-serialised:
 * the plugin's table lives in a delimited block it appends, replaces or cuts as text, so the user's
 * comments, order and formatting survive. The result is parsed again and must define exactly the
 * entry, or nothing is written.
 */
export function tomlBridgeFile(file: string): BridgeFileFormat<TomlServerEntry> {
  const readOrThrow = (text: string) => {
    const result = read(text);
    if ('reason' in result) throw conflict(file, result.reason);
    return result;
  };
  return {
    inspect(text, entry): BridgeFileState {
      if (text === undefined) return { state: 'absent' };
      const result = read(text);
      if ('reason' in result) return { state: 'conflict', reason: `${file}: ${result.reason}` };
      if (result.block === undefined) return { state: 'not-installed' };
      const current = result.lines.slice(result.block.start, result.block.end + 1).map((line) => line.trimEnd());
      return current.join('\n') === tomlBlock(entry).join('\n') ? { state: 'installed' } : { state: 'outdated' };
    },
    install(text, entry) {
      const block = tomlBlock(entry);
      let next: string;
      if (text === undefined || text.trim() === '') {
        next = `${block.join('\n')}\n`;
      } else {
        const { lines, block: current } = readOrThrow(text);
        if (current === undefined) {
          // Appended last: a table header there cannot capture keys the user wrote above it.
          const body = text.endsWith('\n') ? text : `${text}\n`;
          next = `${body}\n${block.join('\n')}\n`;
        } else {
          next = [...lines.slice(0, current.start), ...block, ...lines.slice(current.end + 1)].join('\n');
        }
      }
      if (!holds(next, entry)) throw conflict(file, `cannot take an [mcp_servers.${bridgeServerName}] table where the plugin would add it (mcp_servers written as an inline table?)`);
      return next;
    },
    remove(text) {
      if (text === undefined) return undefined;
      const { lines, block } = readOrThrow(text);
      if (block === undefined) return undefined;
      // The blank line install put before the block goes with it.
      const from = block.start > 0 && lines[block.start - 1]?.trim() === '' ? block.start - 1 : block.start;
      return [...lines.slice(0, from), ...lines.slice(block.end + 1)].join('\n');
    },
  };
}
