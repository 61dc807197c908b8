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

describe('memplane serve', () => {
  it('is listed on memplane --help and runs the command of @memplane/server under its own name', async () => {
    const help = captureOutput();
    expect(await runMemplaneCli(['--help'], help.output)).toBe(0);
    expect(help.stdout()).toMatch(/^ {2}serve {2}/m);
    const serveHelp = captureOutput();
    expect(await runMemplaneCli(['serve', '--help'], serveHelp.output)).toBe(0);
    expect(serveHelp.stdout()).toMatch(/--database-url <url>/);
    const bad = captureOutput();
    expect(await runMemplaneCli(['serve', '--port', 'eighty'], bad.output)).toBe(2);
    expect(bad.stderr()).toMatch(/^memplane serve: error: option '--port <number>' argument 'eighty' is invalid/);
  });

  it('runs memplane token under memplane serve token: one store, the same listing', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'memplane-cli-serve-'));
    try {
      const issued = captureOutput();
      expect(await runMemplaneCli(['serve', 'token', 'issue', '--operator', 'ops', '--data-dir', folder], issued.output)).toBe(0);
      expect(issued.stdout()).toMatch(/^mpk_[A-Za-z0-9_-]{43}\n$/);
      const listed = captureOutput();
      expect(await runMemplaneCli(['token', 'list', '--data-dir', folder], listed.output)).toBe(0);
      const [header, row = ''] = listed.stdout().split('\n');
      expect(header).toBe('id\trole\tcompanies\tsubject\tproject\tstate\texpires\tlabel');
      expect(row).toMatch(/^tok_[A-Za-z0-9_-]{24}\toperator\t\*\tops\t\tactive\t\t$/);
      const forever = captureOutput();
      expect(await runMemplaneCli(['serve', 'token', 'issue', '--operator', 'ops', '--expires-in-days', '1e9', '--data-dir', folder], forever.output)).toBe(2);
      expect(forever.stderr()).toContain('at most 36500');
      const [id] = row.split('\t');
      expect(await runMemplaneCli(['serve', 'token', 'revoke', id ?? '', '--data-dir', folder], captureOutput().output)).toBe(0);
      const again = captureOutput();
      expect(await runMemplaneCli(['token', 'list', '--data-dir', folder], again.output)).toBe(0);
      expect(again.stdout()).toContain('\trevoked\t');
      const missingCompany = captureOutput();
      expect(await runMemplaneCli(['serve', 'token', 'issue', '--agent', 'planner', '--data-dir', folder], missingCompany.output)).toBe(2);
      expect(missingCompany.stderr()).toMatch(/^memplane serve token: .*exactly one --company/m);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
