import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryService } from '@memplane/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemplaneHost } from '@memplane/host';
import { connectInProcess, textOf } from './test-support/mcp-test-service';

describe('memory_forget over MCP, on the embedded default', () => {
  let folder: string;
  let service: MemoryService;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-forget-'));
    const host = await openMemplaneHost({ dataDirectory: folder });
    service = host.service;
    await host.ensureDefaultBinding('acme');
    await host.ensureDefaultBinding('globex');
  });
  afterEach(async () => {
    await service.close();
    await rm(folder, { recursive: true, force: true });
  });

  async function note(scope: { companyId: string; agentId: string }, text: string): Promise<string> {
    const client = await connectInProcess(service, scope);
    try {
      const noted = await client.callTool({ name: 'memory_note', arguments: { text } });
      return (noted.structuredContent as { recordIds: string[] }).recordIds[0]!;
    } finally {
      await client.close();
    }
  }

  it('says "Forgot 0" with forgotten 0 for another agent\'s record, which the other agent still reads', async () => {
    const builders = await note({ companyId: 'acme', agentId: 'builder' }, 'The builder pins the toolchain.');
    const own = await note({ companyId: 'acme', agentId: 'planner' }, 'The planner moves standup to ten.');
    const planner = await connectInProcess(service, { companyId: 'acme', agentId: 'planner' });
    try {
      const refused = await planner.callTool({ name: 'memory_forget', arguments: { recordIds: [builders] } });
      expect(refused.isError).toBeFalsy();
      expect(textOf(refused)).toBe('Forgot 0 record(s). Skipped 1: 1 not yours to forget.');
      expect(refused.structuredContent).toMatchObject({ recordIds: [builders], forgotten: 0, warnings: [{ type: 'scope_violation' }] });
      // The tool's output schema promises the count, so a client can rely on it.
      const listed = (await planner.listTools()).tools.find((tool) => tool.name === 'memory_forget');
      expect(listed?.outputSchema).toMatchObject({ properties: { forgotten: { type: 'integer', minimum: 0 } }, required: expect.arrayContaining(['forgotten']) });
      const mixed = await planner.callTool({ name: 'memory_forget', arguments: { recordIds: [own, builders] } });
      expect(textOf(mixed)).toBe('Forgot 1 record(s). Skipped 1: 1 not yours to forget.');
      expect(mixed.structuredContent).toMatchObject({ forgotten: 1 });
    } finally {
      await planner.close();
    }
    const builder = await connectInProcess(service, { companyId: 'acme', agentId: 'builder' });
    try {
      const read = await builder.callTool({ name: 'memory_get', arguments: { recordId: builders } });
      expect(read.structuredContent).toMatchObject({ record: { text: 'The builder pins the toolchain.' } });
    } finally {
      await builder.close();
    }
  });

  it('answers another company\'s record exactly as a record that does not exist: not found', async () => {
    const globex = await note({ companyId: 'globex', agentId: 'scout' }, 'Globex ships on Thursdays.');
    const missing = `${globex}-missing`;
    const planner = await connectInProcess(service, { companyId: 'acme', agentId: 'planner' });
    try {
      const seen = async (recordId: string) => {
        const result = await planner.callTool({ name: 'memory_forget', arguments: { recordIds: [recordId] } });
        const { operationId: _id, ...rest } = result.structuredContent as { operationId: string };
        return JSON.stringify({ text: textOf(result), rest }).replaceAll(recordId.slice(recordId.indexOf(':') + 1), '<id>').replaceAll(recordId, '<recordId>');
      };
      const never = await seen(missing);
      expect(never).toContain('Forgot 0 record(s). Skipped 1: 1 not found.');
      expect(never).toContain('"forgotten":0');
      expect(never).toContain('"type":"not_found"');
      expect(await seen(globex)).toBe(never);
    } finally {
      await planner.close();
    }
  });
});
