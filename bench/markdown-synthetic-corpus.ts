/** A deterministic pseudo-random generator (mulberry32), so every run indexes the same corpus. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** One synthetic record. */
export interface SyntheticRecord {
  id: number;
  companyId: string;
  agentId: string;
  text: string;
}

const syllables = ['ka', 'lo', 'mi', 'ren', 'sta', 'vo', 'tri', 'pel', 'dor', 'gan', 'shu', 'bex', 'qua', 'nir', 'fol', 'zet'];

/** A pseudo-English vocabulary, each word made of 2 to 4 syllables (16 syllables give 69,888 words at most). */
export function vocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    let word = '';
    for (let index = 0; index < length; index += 1) word += syllables[Math.floor(random() * syllables.length)];
    words.add(word);
  }
  return [...words];
}

/** Samples word ranks by Zipf's law (s = 1) through a cumulative table. */
export function zipfSampler(size: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let rank = 0; rank < size; rank += 1) {
    total += 1 / (rank + 1);
    cumulative[rank] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/**
 * The corpus of the research measurements (`local-index.md`): texts of 30 to 60 Zipf-distributed
 * words, spread evenly over companies, each company with 10 agents.
 */
export function syntheticCorpus(count: number, companies: number, seed = 7): { records: SyntheticRecord[]; words: string[] } {
  const random = seededRandom(seed);
  const words = vocabulary(5000, random);
  const sample = zipfSampler(words.length, random);
  const records: SyntheticRecord[] = [];
  for (let id = 0; id < count; id += 1) {
    const length = 30 + Math.floor(random() * 31);
    const text: string[] = [];
    for (let index = 0; index < length; index += 1) text.push(words[sample()] as string);
    records.push({ id, companyId: `company-${id % companies}`, agentId: `agent-${Math.floor(id / companies) % 10}`, text: text.join(' ') });
  }
  return { records, words };
}

/** Queries of 2 or 3 terms drawn from word ranks 50 and up, as in the research measurements. */
export function syntheticQueries(words: string[], count: number, seed = 11): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const terms = 2 + Math.floor(random() * 2);
    return Array.from({ length: terms }, () => words[50 + Math.floor(random() * (words.length - 50))]).join(' ');
  });
}
