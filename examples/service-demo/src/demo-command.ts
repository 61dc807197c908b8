import { runMemoryServiceDemo } from './run-memory-service-demo';

/** Where the demo's command line writes: the story to stdout, usage errors and failures to stderr. */
export interface DemoCommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The usage `npm run demo -- --help` prints. */
export const demoUsage =
  'npm run demo [-- --data-directory <folder>]\n\nWithout --data-directory the demo works in a temporary folder and removes it.\n';

/**
 * `npm run demo`: parses the one option (`--data-directory <folder>`) and runs the demo. Returns
 * the exit code: 0 after the whole story, 1 when the demo failed, 2 for a usage error (which
 * never starts the demo, since the demo writes a database).
 */
export async function runDemoCommand(argv: string[], output: DemoCommandOutput): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    output.stdout(`Usage: ${demoUsage}`);
    return 0;
  }
  const flag = argv.indexOf('--data-directory');
  const dataDirectory = flag === -1 ? undefined : argv[flag + 1];
  if (flag !== -1 && (dataDirectory === undefined || dataDirectory.startsWith('-'))) {
    output.stderr('--data-directory needs a folder.\n');
    return 2;
  }
  const unknown = flag === -1 ? argv : [...argv.slice(0, flag), ...argv.slice(flag + 2)];
  if (unknown.length > 0) {
    output.stderr(`unknown argument: ${unknown[0]}\nUsage: ${demoUsage}`);
    return 2;
  }
  try {
    await runMemoryServiceDemo({ write: (text) => output.stdout(text), ...(dataDirectory === undefined ? {} : { dataDirectory }) });
    return 0;
  } catch (error) {
    output.stderr(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
