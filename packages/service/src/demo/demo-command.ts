import { runMemoryServiceDemo } from './run-memory-service-demo';

/**
 * `memplane demo`, in the shape of the CLI's `MemplaneCommand` (name, summary, usage, run), so
 * the CLI can mount it without this package depending on the CLI.
 */
export const memoryServiceDemoCommand = {
  name: 'demo',
  summary: 'Run the scripted two-company memory service demo on embedded SQLite and markdown.',
  usage: 'memplane demo [--data-directory <folder>]\n\nWithout --data-directory the demo works in a temporary folder and removes it.',
  async run(argv: string[], output: { stdout(text: string): void; stderr(text: string): void }): Promise<number> {
    const flag = argv.indexOf('--data-directory');
    const dataDirectory = flag === -1 ? undefined : argv[flag + 1];
    if (flag !== -1 && dataDirectory === undefined) {
      output.stderr('--data-directory needs a folder.\n');
      return 2;
    }
    try {
      await runMemoryServiceDemo({ write: (text) => output.stdout(text), ...(dataDirectory === undefined ? {} : { dataDirectory }) });
      return 0;
    } catch (error) {
      output.stderr(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  },
};
