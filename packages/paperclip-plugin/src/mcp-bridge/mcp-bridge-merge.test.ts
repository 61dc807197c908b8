import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { claudeCodeEntry, codexEntry, type TomlServerEntry } from './mcp-bridge-clients';
import { jsonBridgeFile } from './mcp-bridge-json-file';
import { tomlBridgeFile } from './mcp-bridge-toml-file';

const launch = { command: 'npx', args: ['-y', '@memplane/mcp@1.0.0', '--data-dir', '/srv/memplane'] };
const jsonEntry = claudeCodeEntry(launch);
const tomlEntry = codexEntry(launch) as TomlServerEntry;
const json = jsonBridgeFile('.mcp.json');
const toml = tomlBridgeFile('config.toml');

// Names a user might give servers and keys, hostile ones included (`__proto__`, quotes, dots, unicode).
const name = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'a.b', 'x"y', 'mcp_servers', 'Memplane', 'memplane ')).filter((key) => key !== 'memplane');

describe('merging into a user file (property)', () => {
  it('JSON: install keeps every other server and key; remove gives back what the user had', () => {
    fc.assert(
      fc.property(fc.dictionary(name, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), (servers, topLevel) => {
        const user = { ...topLevel, mcpServers: servers };
        const text = JSON.stringify(user, null, 2);
        const installed = json.install(text, jsonEntry);
        const document = JSON.parse(installed);
        expect(document.mcpServers.memplane).toEqual(jsonEntry);
        for (const key of Object.keys(servers)) expect(document.mcpServers[key]).toEqual(JSON.parse(JSON.stringify(servers))[key]);
        expect(json.inspect(installed, jsonEntry)).toEqual({ state: 'installed' });
        expect(json.install(installed, jsonEntry)).toBe(installed);
        expect(JSON.parse(json.remove(installed) ?? '')).toEqual(JSON.parse(text));
      }),
    );
  });

  it('TOML: install appends one block after the untouched user text; remove gives back the exact bytes', () => {
    const value = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }));
    const table = fc.dictionary(name, value, { maxKeys: 4 });
    fc.assert(
      fc.property(table, fc.dictionary(name, table, { maxKeys: 3 }), fc.string({ maxLength: 30 }), (top, servers, comment) => {
        const commentLine = `# ${comment.replace(/[\r\n\u0000-\u001f\u007f]/g, ' ')}`;
        const text = `${commentLine}\n${stringify({ ...top, mcp_servers: servers })}\n`;
        const installed = toml.install(text, tomlEntry);
        expect(installed.startsWith(text)).toBe(true);
        const parsed = parse(installed) as { mcp_servers: Record<string, unknown> };
        expect(parsed.mcp_servers.memplane).toEqual(tomlEntry);
        expect(parsed.mcp_servers).toEqual({ ...(parse(text) as { mcp_servers: Record<string, unknown> }).mcp_servers, memplane: tomlEntry });
        expect(toml.install(installed, tomlEntry)).toBe(installed);
        expect(toml.remove(installed)).toBe(text);
      }),
    );
  });

  it('refuses any file whose memplane entry lacks the marker, whatever else it holds', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), (foreign) => {
        const text = JSON.stringify({ mcpServers: { memplane: { ...foreign, env: { ...(foreign.env as object), MEMPLANE_MCP_BRIDGE: 'someone-else' } } } });
        expect(() => json.install(text, jsonEntry)).toThrow(/did not write/);
        expect(json.remove(text)).toBeUndefined();
      }),
    );
  });
});
