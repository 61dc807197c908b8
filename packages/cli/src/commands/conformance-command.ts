import { runConformanceCli } from '@memplane/conformance/runner';
import type { MemplaneCommand } from '../memplane-command';

/** `memplane conformance <module>`: the conformance runner, the same as `memplane-conformance`. */
export const conformanceCommand: MemplaneCommand = {
  name: 'conformance',
  summary: 'Run the conformance suite over an adapter module.',
  usage: 'memplane conformance <module> [--export name] [--json report.json] [--only rule-prefix]',
  run: (argv, output) =>
    runConformanceCli(argv, { stdout: { write: output.stdout }, stderr: { write: output.stderr } }),
};
