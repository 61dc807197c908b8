/**
 * The term frequencies of a token list above 1, as stored beside each indexed document:
 * `term:count` pairs separated by spaces (`deploy:3 friday:2`), null when every term appears once,
 * which is the common case for a memory. Analysed tokens hold neither spaces nor colons (the
 * analyser splits on both), so a pair is found by a plain string search, without parsing.
 */
export function encodeRepeats(tokens: readonly string[]): string | null {
  const counts = new Map<string, number>();
  let repeated = false;
  for (const token of tokens) {
    const count = counts.get(token);
    if (count === undefined) counts.set(token, 1);
    else {
      counts.set(token, count + 1);
      repeated = true;
    }
  }
  if (!repeated) return null;
  let encoded = '';
  for (const [term, count] of counts) if (count > 1) encoded += encoded === '' ? `${term}:${count}` : ` ${term}:${count}`;
  return encoded;
}

/** The frequency of `term` in a document whose repeats are `encoded` and that holds the term. */
export function frequencyIn(encoded: string | null, term: string): number {
  if (encoded === null) return 1;
  const key = `${term}:`;
  let at = encoded.startsWith(key) ? 0 : encoded.indexOf(` ${key}`);
  if (at === -1) return 1;
  if (at > 0) at += 1;
  return Number.parseInt(encoded.slice(at + key.length), 10);
}
