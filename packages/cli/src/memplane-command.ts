/** Where a command writes. Library code never writes to the console; commands write here. */
export interface CommandOutput {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Whether standard output is a terminal (colour). Absent means no. */
  stdoutIsTTY?: boolean;
  /** Whether standard error is a terminal (progress). Absent means no. */
  stderrIsTTY?: boolean;
}

/** How a subcommand was invoked. */
export interface CommandContext {
  /** The command as the user typed it, such as `memplane conformance`, for help and messages. */
  commandName: string;
}

/** One `memplane <name>` subcommand. Other packages contribute subcommands through this shape. */
export interface MemplaneCommand {
  /** The subcommand name, such as `conformance`. */
  name: string;
  /** One line for `memplane --help`. */
  summary: string;
  /** A one-line usage, shown by `memplane --help` when the command's package is not installed. */
  usage: string;
  /**
   * Runs the command with the arguments after its name, `--help` and `--version` included (the
   * command prints its own full usage), and resolves to the exit code: 0 success, 1 the command's
   * work failed, 2 a usage or configuration error.
   */
  run(argv: string[], output: CommandOutput, context?: CommandContext): Promise<number>;
}
