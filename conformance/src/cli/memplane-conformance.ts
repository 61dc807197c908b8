import { runConformanceCli } from './run-conformance-cli';

// The bin: the only place that touches the real process streams and exit code.
void runConformanceCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then((exitCode) => {
  process.exitCode = exitCode;
});
