import { describe, expect, it } from 'vitest';
import { runDemoCommand } from './demo-command';

describe('the demo', () => {
  it('tells the whole story on the embedded default and keeps the companies apart', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runDemoCommand([], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/acme\/planner\s+default\s+markdown\s+company default/);
    expect(stdout).toMatch(/acme\/builder\s+builder-scratch\s+memory\s+agent override/);
    expect(stdout).toMatch(/globex\/scout\s+default\s+markdown\s+company default/);
    expect(stdout).toContain('| ## Remembered context (advisory)');
    expect(stdout).toMatch(/\| - We decided that billing deploys happen on Tuesdays/);
    expect(stdout).toContain('refresh 2: job_0001 succeeded');
    expect(stdout).toContain('Scheduled the billing deploy for Tuesday at 16:00 UTC.');
    expect(stdout).toContain('[memory:mem_000002] The build cache lives on the runner disk.');
    expect(stdout).toContain('refused: MEMORY_SCOPE_VIOLATION');
    expect(stdout).toContain("globex's note in acme's results: no");
    // Each tool line names the agent acting, and the log excerpt says why a number is missing.
    expect(stdout).toMatch(/^ {2}globex\/scout memory\.note \{/m);
    expect(stdout).toMatch(/^ {2}acme\/planner memory\.forget \{/m);
    expect(stdout).toMatch(/# numbers every operation of the service: 2 is another company's, which acme's log never shows\./);
    expect(stdout).toMatch(/acme\/default: \d+ operations/);
    expect(stdout).toMatch(/acme\/builder-scratch: \d+ operations/);
    expect(stdout).toMatch(/service metrics: \d+ operations, 1 failed, 1 denied, 0 dropped out of scope/);
    expect(stdout).not.toContain('UNEXPECTED');
  });

  it('refuses a missing folder argument', async () => {
    let stderr = '';
    const code = await runDemoCommand(['--data-directory'], { stdout: () => undefined, stderr: (text) => (stderr += text) });
    expect(code).toBe(2);
    expect(stderr).toContain('needs a folder');
  });

  it('prints its usage for --help and refuses an unknown argument, without starting the demo', async () => {
    let stdout = '';
    let stderr = '';
    const output = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };
    expect(await runDemoCommand(['--help'], output)).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run demo/);
    expect(await runDemoCommand(['--data-directory', 'somewhere', '--nope'], output)).toBe(2);
    expect(stderr).toContain('unknown argument: --nope');
    expect(stdout).not.toContain('memory service demo:');
  });
});
