/**
 * Keeps the worker's `memplane serve` token out of what a server, or a proxy in front of it, sends
 * back. A proxy that echoes the `Authorization` header into an error page or a problem's `detail`
 * would otherwise put the token in an error, and from there in a tool result the model reads and
 * in the worker's log.
 */
export interface TokenScrubber {
  /**
   * The text with every occurrence of the token replaced by `[token]`: written plainly, or with
   * any of its characters JSON-escaped (`\u006d`, `\/`), as a JSON body may carry it.
   */
  text(text: string): string;
  /**
   * A copy of a parsed JSON value with {@link TokenScrubber.text} applied to every string and
   * every object key, at any depth (nesting deeper than {@link maxScrubDepth} is dropped as `null`).
   */
  value(value: unknown): unknown;
  /** Whether the token, in any of those forms, is anywhere in an error: its message, its own properties, its cause chain. */
  leaksInto(error: unknown): boolean;
}

/** How deep {@link TokenScrubber.value} follows nested arrays and objects (a problem body is three levels deep). */
export const maxScrubDepth = 64;

const shortEscapes: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

const literal = (character: string) => character.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
const anyCaseHex = (digit: string) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit);

/** Every way one UTF-16 code unit of the token may be written in JSON text, as one regular-expression group. */
function formsOf(unit: string): string {
  const hex = unit.charCodeAt(0).toString(16).padStart(4, '0');
  const forms = [literal(unit), `\\\\u${[...hex].map(anyCaseHex).join('')}`];
  const short = shortEscapes[unit];
  if (short !== undefined) forms.push(`\\\\${literal(short)}`);
  return `(?:${forms.join('|')})`;
}

/** Creates the scrubber of one token; an empty token cuts nothing. */
export function createTokenScrubber(token: string): TokenScrubber {
  // No `u` flag: the pattern walks the token's UTF-16 code units, as JSON's \u escapes do.
  const pattern = token === '' ? undefined : new RegExp(token.split('').map(formsOf).join(''), 'g');
  const holds = (text: string) => pattern !== undefined && text.search(pattern) !== -1;

  function text(input: string): string {
    if (pattern === undefined) return input;
    let output = input;
    // Cutting can join the text around an occurrence into a new one, so cut until none is left;
    // after a few rounds remove occurrences outright, which ends since each removal shortens the text.
    for (let round = 0; holds(output); round += 1) output = output.replace(pattern, round < 3 ? '[token]' : '');
    return output;
  }

  function value(input: unknown, depth = 0): unknown {
    if (typeof input === 'string') return text(input);
    if (typeof input !== 'object' || input === null) return input;
    if (depth >= maxScrubDepth) return null;
    if (Array.isArray(input)) return input.map((item: unknown) => value(item, depth + 1));
    return Object.fromEntries(Object.entries(input).map(([key, item]) => [text(key), value(item, depth + 1)]));
  }

  function leaksInto(error: unknown): boolean {
    if (pattern === undefined) return false;
    const seen = new Set<object>();
    const visit = (item: unknown, depth: number): boolean => {
      if (typeof item === 'string') return holds(item);
      if (typeof item !== 'object' || item === null || seen.has(item)) return false;
      // An error this deep is not one the transport built; treat it as a leak rather than trust it.
      if (depth >= maxScrubDepth) return true;
      seen.add(item);
      // Own properties, enumerable or not (an Error's message, stack and cause are not enumerable).
      return Object.getOwnPropertyNames(item).some((name) => holds(name) || visit((item as Record<string, unknown>)[name], depth + 1));
    };
    return visit(error, 0);
  }

  return { text, value, leaksInto };
}
