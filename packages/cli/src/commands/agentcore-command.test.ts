import { describe, expect, it } from 'vitest';
import { runMemplaneCli } from '../run-memplane-cli';

function captureOutput() {
  let stdout = '';
  let stderr = '';
  return { output: { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) }, stdout: () => stdout, stderr: () => stderr };
}

describe('memplane agentcore', () => {
  it('is listed on memplane --help and runs the setup command of @memplane/agentcore', async () => {
    const help = captureOutput();
    expect(await runMemplaneCli(['--help'], help.output)).toBe(0);
    expect(help.stdout()).toMatch(/^ {2}agentcore {2}/m);
    const setupHelp = captureOutput();
    expect(await runMemplaneCli(['agentcore', 'setup', '--help'], setupHelp.output)).toBe(0);
    expect(setupHelp.stdout()).toMatch(/--memory-id <id>/);
    const missing = captureOutput();
    expect(await runMemplaneCli(['agentcore', 'setup'], missing.output)).toBe(2);
    expect(missing.stderr()).toMatch(/^memplane agentcore: error: required option '--memory-id <id>' not specified/);
  });
});
