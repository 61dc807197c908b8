import { runCreateMemplaneAdapter } from './run-cli';

process.exitCode = await runCreateMemplaneAdapter(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
  cwd: process.cwd(),
});
