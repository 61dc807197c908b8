import { runConformanceCli } from '@memplane/conformance/runner';
import type { MemplaneCommand } from '../memplane-command';

/** `memplane conformance <module>`: the conformance runner, the same as `memplane-conformance`. */
export const conformanceCommand: MemplaneCommand = {
  name: 'conformance',
  summary: 'Run the conformance suite over an adapter module.',
  usage: 'memplane conformance [options] <module>',
  run: (argv, output, context) =>
    runConformanceCli(argv, {
      stdout: { write: output.stdout, isTTY: output.stdoutIsTTY === true },
      stderr: { write: output.stderr, isTTY: output.stderrIsTTY === true },
      commandName: context?.commandName ?? 'memplane conformance',
    }),
};
