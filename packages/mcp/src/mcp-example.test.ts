import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMcpExample } from '../../../examples/mcp/src/mcp-example';

describe('examples/mcp', () => {
  it('runs: served on loopback, noted, found, refused another company, forgotten', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-example-test-'));
    try {
      const report = await runMcpExample(folder);
      expect(report.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(report.tools).toEqual(expect.arrayContaining(['memory_search', 'memory_note', 'memory_correct', 'memory_forget']));
      expect(report.noted).toMatch(/^Noted as markdown:/);
      expect(report.found).toContain('every second Tuesday');
      expect(report.refused).toContain('MEMORY_VALIDATION');
      expect(report.afterForget).toBe('No memories matched.');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 30_000);
});
