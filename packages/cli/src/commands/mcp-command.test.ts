import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMemplaneCli } from '../run-memplane-cli';

function captureOutput() {
  let stdout = '';
  let stderr = '';
  return { output: { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) }, stdout: () => stdout, stderr: () => stderr };
}

describe('memplane mcp', () => {
  it('is listed on memplane --help and runs the command of @memplane/mcp under its own name', async () => {
    const help = captureOutput();
    expect(await runMemplaneCli(['--help'], help.output)).toBe(0);
    expect(help.stdout()).toMatch(/^ {2}mcp {2}/m);
    const mcpHelp = captureOutput();
    expect(await runMemplaneCli(['mcp', '--help'], mcpHelp.output)).toBe(0);
    expect(mcpHelp.stdout()).toMatch(/--transport <kind>/);
    const missing = captureOutput();
    expect(await runMemplaneCli(['mcp', 'token', 'issue', '--agent', 'planner'], missing.output)).toBe(2);
    expect(missing.stderr()).toMatch(/^memplane mcp token: .*exactly one --company <id>/);
  });

  it('issues a token through memplane mcp token issue (memplane token under its name)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'memplane-cli-mcp-'));
    try {
      const issued = captureOutput();
      expect(await runMemplaneCli(['mcp', 'token', 'issue', '--company', 'acme', '--agent', 'planner', '--data-dir', folder], issued.output)).toBe(0);
      expect(issued.stdout()).toMatch(/^mpk_[A-Za-z0-9_-]{43}\n$/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
