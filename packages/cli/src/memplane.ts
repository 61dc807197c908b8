import { runMemplaneCli } from './run-memplane-cli';

const exitCode = await runMemplaneCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
});
process.exitCode = exitCode;
