/** One ranked document and the parts of its score. */
export interface RankedCandidate {
  readonly rowid: number;
  /** `ownScore + context × windowScore`. */
  readonly score: number;
  /** Its own (weighted) BM25, 0 when it matched through windows alone. */
  readonly ownScore: number;
  /** The best score of a window holding it, 0 when none matched. */
  readonly windowScore: number;
}

/** What a windowed search found (`scoreWithWindows`), for {@link rankCandidates}. */
export interface CandidateScores {
  /** Each document's own (weighted) BM25. */
  readonly own: ReadonlyMap<number, number>;
  /** The best window score of each document that holds a query term in the windows' field (exact: every window holding it was scored). */
  readonly bestWindow: ReadonlyMap<number, number>;
  /** Each window found, by key, and its score. */
  readonly windows: ReadonlyMap<number, number>;
  /** The weight of a window's score. */
  readonly context: number;
}

/** The members of windows, as [window key, rowid] pairs. */
export type WindowMembers = ReadonlyArray<readonly [number, number]>;

/** What the ranking needs next: the members of some windows, or a candidate is ready. */
type RankingStep = { readonly members: readonly number[] } | { readonly candidate: RankedCandidate };

/** The candidates best first, reading window members through a synchronous index (SQLite). */
export function* rankCandidates(scores: CandidateScores, membersOf: (keys: readonly number[]) => WindowMembers): Generator<RankedCandidate> {
  const steps = rankingSteps(scores);
  for (let step = steps.next(); step.done !== true; ) {
    const value: RankingStep = step.value;
    if ('members' in value) step = steps.next(membersOf(value.members));
    else {
      yield value.candidate;
      step = steps.next();
    }
  }
}

/** The candidates best first, reading window members through an asynchronous index (Postgres). */
export async function* rankCandidatesAsync(scores: CandidateScores, membersOf: (keys: readonly number[]) => Promise<WindowMembers>): AsyncGenerator<RankedCandidate> {
  const steps = rankingSteps(scores);
  for (let step = steps.next(); step.done !== true; ) {
    const value: RankingStep = step.value;
    if ('members' in value) step = steps.next(await membersOf(value.members));
    else {
      yield value.candidate;
      step = steps.next();
    }
  }
}

type Entry = { rowid: number; score: number; ownScore: number; windowScore: number };

const byScoreThenRowid = (left: Entry, right: Entry) => right.score - left.score || left.rowid - right.rowid;

/** The first expansion reads the members of this many windows; each later one twice as many. */
const firstExpansion = 16;

/**
 * The candidates best first (ties by rowid, which follows file order), as a lazy sequence. A
 * record that holds no query term scores through its windows alone, so its windows' members must
 * be read; they are read best window first, only as far as the next candidate needs. A record is
 * yielded once no window left unread could lift another record above it: its score is above
 * `context ×` the best unread window plus the best own score still waiting for its windows. The
 * steps ask for members and yield candidates, so one ranking serves sync and async indexes.
 */
function* rankingSteps(sources: CandidateScores): Generator<RankingStep, void, WindowMembers | undefined> {
  const { own, bestWindow, context } = sources;
  const ready: Entry[] = [];
  for (const [rowid, best] of bestWindow) {
    const ownScore = own.get(rowid) ?? 0;
    ready.push({ rowid, score: ownScore + context * best, ownScore, windowScore: best });
  }
  // Records matched outside the windows' field (metadata) may still gain a window: their own score is a lower bound.
  const waiting = new Map<number, number>();
  for (const [rowid, ownScore] of own) if (!bestWindow.has(rowid)) waiting.set(rowid, ownScore);
  const windows = [...sources.windows].sort((left, right) => right[1] - left[1]);
  let next = 0;
  let expansion = firstExpansion;
  let pending = ready;
  // Records whose best window is known: read in an earlier expansion.
  const settled = new Set<number>();
  for (;;) {
    const unread = next < windows.length ? context * (windows[next] as [number, number])[1] : undefined;
    if (unread === undefined) {
      for (const [rowid, ownScore] of waiting) pending.push({ rowid, score: ownScore, ownScore, windowScore: 0 });
      for (const candidate of sortedLazily(pending.filter((entry) => entry.score > 0))) yield { candidate };
      return;
    }
    let bound = unread;
    for (const ownScore of waiting.values()) bound = Math.max(bound, ownScore + unread);
    const above = pending.filter((entry) => entry.score > bound);
    if (above.length > 0) {
      for (const candidate of sortedLazily(above)) yield { candidate };
      pending = pending.filter((entry) => entry.score <= bound);
    }
    const keys = windows.slice(next, next + expansion);
    next += keys.length;
    expansion *= 2;
    const members = new Map<number, number[]>();
    for (const [key, rowid] of (yield { members: keys.map(([key]) => key) }) ?? []) {
      const list = members.get(key);
      if (list === undefined) members.set(key, [rowid]);
      else list.push(rowid);
    }
    // Best window first, so a record's first window read is its best.
    for (const [key, score] of keys) {
      for (const rowid of members.get(key) ?? []) {
        if (bestWindow.has(rowid) || settled.has(rowid)) continue;
        settled.add(rowid);
        const ownScore = waiting.get(rowid) ?? 0;
        waiting.delete(rowid);
        pending.push({ rowid, score: ownScore + context * score, ownScore, windowScore: score });
      }
    }
  }
}

/**
 * Entries best first: when there are many, the 64th best score bounds a first block that is
 * sorted alone, and the rest is sorted only if the caller reads that far (filters rejecting many).
 */
function* sortedLazily(entries: Entry[]): Generator<Entry> {
  const head = 64;
  if (entries.length <= head * 4) {
    yield* entries.sort(byScoreThenRowid);
    return;
  }
  const threshold = selectNth(entries.map((entry) => entry.score), head - 1);
  const first = entries.filter((entry) => entry.score >= threshold).sort(byScoreThenRowid);
  yield* first;
  yield* entries.filter((entry) => entry.score < threshold).sort(byScoreThenRowid);
}

/** The n-th largest value (0 is the largest), by quickselect. */
function selectNth(values: number[], n: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1] as number;
    let left = low;
    let right = high;
    while (left <= right) {
      while ((values[left] as number) > pivot) left += 1;
      while ((values[right] as number) < pivot) right -= 1;
      if (left <= right) {
        [values[left], values[right]] = [values[right] as number, values[left] as number];
        left += 1;
        right -= 1;
      }
    }
    if (n <= right) high = right;
    else if (n >= left) low = left;
    else break;
  }
  return values[n] as number;
}
