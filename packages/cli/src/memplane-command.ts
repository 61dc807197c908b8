/** Where a command writes. Library code never writes to the console; commands write here. */
export interface CommandOutput {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
}

/** One `memplane <name>` subcommand. Other packages contribute subcommands through this shape. */
export interface MemplaneCommand {
  /** The subcommand name, such as `conformance`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** Usage text for `memplane <name> --help`. */
  usage: string;
  /** Runs the command and resolves to the process exit code. */
  run(argv: string[], output: CommandOutput): Promise<number>;
}
