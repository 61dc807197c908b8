/** A stream the CLI writes to; `isTTY` is read from `process.stdout` and `process.stderr`. */
export interface CliStream {
  /** Writes text. */
  write(text: string): unknown;
  /** Whether the stream is a terminal. Progress and colour only go to a terminal. */
  isTTY?: boolean;
}

/** Whether colour may be used on `stream`: a terminal, and `NO_COLOR` unset or empty (https://no-color.org). */
export function colourAllowed(stream: CliStream, environment: Readonly<Record<string, string | undefined>>): boolean {
  const noColor = environment.NO_COLOR;
  return stream.isTTY === true && (noColor === undefined || noColor === '');
}

const codes = { green: 32, red: 31, yellow: 33 } as const;

/** Wraps `text` in an ANSI colour when `enabled`. */
export function paint(text: string, colour: keyof typeof codes, enabled: boolean): string {
  return enabled ? `\u001B[${codes[colour]}m${text}\u001B[39m` : text;
}

/** A one-line progress display on a terminal stream; nothing at all on any other stream. */
export function createProgressLine(stream: CliStream): { show(text: string): void; clear(): void } {
  const active = stream.isTTY === true;
  let shown = false;
  return {
    show(text) {
      if (!active) return;
      stream.write(`\r\u001B[2K${text}`);
      shown = true;
    },
    clear() {
      if (!shown) return;
      stream.write('\r\u001B[2K');
      shown = false;
    },
  };
}
