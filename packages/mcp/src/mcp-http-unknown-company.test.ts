import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openDataFolderService } from '@memplane/host';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveMcpHttp } from './test-support/mcp-http-serving';
import { textOf } from './test-support/mcp-test-service';
import { issueAgentToken } from './test-support/mcp-test-tokens';

let folder: string;
let data: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-unknown-'));
  data = join(folder, 'data');
});
afterEach(async () => rm(folder, { recursive: true, force: true }));

const typo = 'typo-co';
const issue = (companyId: string) => issueAgentToken(data, { companyId, agentId: 'planner' });

/** Every file and folder under the data folder, by relative path. */
async function entries(): Promise<string[]> {
  return (await readdir(data, { recursive: true, withFileTypes: true })).map((entry) => relative(data, join(entry.parentPath, entry.name))).sort();
}

/** What the data folder's service holds of a company, read once the server has stopped (its log flushed). */
async function heldFor(companyId: string) {
  const service = await openDataFolderService({ dataDirectory: data });
  try {
    return {
      bindings: await service.store.listBindings(companyId),
      targets: await service.store.listTargets(companyId),
      activity: (await service.store.listActivity(companyId, { limit: 10 })).items,
      operations: (await service.store.listOperations({ companyId }, { limit: 10 })).items,
    };
  } finally {
    await service.close();
  }
}

describe('memplane-mcp over HTTP in a company the service does not know', () => {
  it('opens a session and answers every tool but memory_note with MEMORY_NOT_FOUND, and starts nothing: no binding, no activity, no log entry, no folder', async () => {
    const { token } = await issue(typo);
    const served = await serveMcpHttp(data);
    const answers = new Map<string, unknown>();
    try {
      const client = await served.connect(token);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('memory_note');
      const argumentsOf: Record<string, Record<string, unknown>> = { memory_search: { query: 'anything' }, memory_list: {} };
      for (const name of tools.filter((tool) => tool !== 'memory_note')) answers.set(name, await client.callTool({ name, arguments: argumentsOf[name] ?? {} }));
    } finally {
      await served.stop();
    }
    // Nothing held first: opening the session and reading must not have started the company.
    expect(await heldFor(typo)).toEqual({ bindings: [], targets: [], activity: [], operations: [] });
    expect((await entries()).filter((entry) => entry.includes(typo))).toEqual([]);
    expect([...answers.keys()]).toEqual(expect.arrayContaining(['memory_search', 'memory_list', 'memory_get', 'memory_correct', 'memory_forget']));
    for (const [name, answer] of answers) {
      expect((answer as { isError?: boolean }).isError, name).toBe(true);
      expect(textOf(answer), name).toContain('[MEMORY_NOT_FOUND]');
      expect(textOf(answer), name).toContain(`"${typo}"`);
      expect(textOf(answer), name).not.toContain('memory.');
    }
  });

  it('is started by the first memory_note: the default markdown binding and its folder, then the note is found', async () => {
    const { token } = await issue(typo);
    const served = await serveMcpHttp(data);
    try {
      const client = await served.connect(token);
      const noted = await client.callTool({ name: 'memory_note', arguments: { text: 'The typo company ships on Tuesdays.' } });
      expect(noted.isError, textOf(noted)).toBeFalsy();
      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'when does it ship' } });
      expect(textOf(found)).toContain('Tuesdays');
    } finally {
      await served.stop();
    }
    const held = await heldFor(typo);
    expect(held.bindings).toMatchObject([{ key: 'default', providerId: 'markdown' }]);
    expect(held.activity.length).toBeGreaterThan(0);
    expect(await entries()).toContain(join('markdown', typo));
  });

  it('starts nothing for a memory_note it refuses as malformed', async () => {
    const { token } = await issue(typo);
    const served = await serveMcpHttp(data);
    try {
      const client = await served.connect(token);
      const refused = await client.callTool({ name: 'memory_note', arguments: { text: 'x', companyId: 'globex' } });
      expect(refused.isError).toBe(true);
    } finally {
      await served.stop();
    }
    const held = await heldFor(typo);
    expect({ bindings: held.bindings, targets: held.targets, activity: held.activity }).toEqual({ bindings: [], targets: [], activity: [] });
    expect((await entries()).filter((entry) => entry.includes(typo))).toEqual([]);
  });
});
