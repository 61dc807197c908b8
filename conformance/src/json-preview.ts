/** The key under which a shortened object names the fields it leaves out. */
export const elidedFieldsKey = '…';

/** Room kept for the note that counts what was left out; the shortest note always fits in it. */
const noteReserve = 48;

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `3 fields left out: text, metadata and 1 other`, naming as many fields as `room` allows. */
function fieldsNote(keys: ReadonlyArray<string>, room: number): string {
  const counted = `${plural(keys.length, 'field')} left out`;
  let best = counted;
  for (let named = 1; named <= keys.length; named += 1) {
    const others = keys.length - named;
    const note = `${counted}: ${keys.slice(0, named).join(', ')}${others > 0 ? ` and ${plural(others, 'other')}` : ''}`;
    if (JSON.stringify(note).length > room) break;
    best = note;
  }
  return best;
}

function renderArray(items: ReadonlyArray<unknown>, budget: number): string | undefined {
  if (budget < 2 + noteReserve) return undefined;
  const parts: string[] = [];
  let used = 2 + noteReserve;
  let shown = 0;
  for (const item of items) {
    const part = render(item, budget - used - 1);
    if (part === undefined) break;
    parts.push(part);
    used += part.length + 1;
    shown += 1;
  }
  const left = items.length - shown;
  if (left > 0) parts.push(JSON.stringify(`${shown === 0 ? '' : 'and '}${plural(left, 'more item')} left out`));
  return `[${parts.join(',')}]`;
}

function renderObject(object: Record<string, unknown>, budget: number): string | undefined {
  if (budget < 2 + noteReserve) return undefined;
  const entries = Object.entries(object).map(([key, value]) => ({ name: `${JSON.stringify(key)}:`, key, value, part: undefined as string | undefined }));
  let used = 2 + noteReserve;
  // First the fields that fit whole, in order, so the short ones (a handle, a scope) are never
  // crowded out by a long one before them; then shortened forms of the rest in what room is left.
  for (const entry of entries) {
    const whole = JSON.stringify(entry.value);
    if (entry.name.length + whole.length + 1 > budget - used) continue;
    entry.part = whole;
    used += entry.name.length + whole.length + 1;
  }
  for (const entry of entries) {
    if (entry.part !== undefined || typeof entry.value !== 'object' || entry.value === null) continue;
    entry.part = render(entry.value, budget - used - entry.name.length - 1);
    if (entry.part !== undefined) used += entry.name.length + entry.part.length + 1;
  }
  const parts = entries.filter((entry) => entry.part !== undefined).map((entry) => `${entry.name}${entry.part}`);
  const left = entries.filter((entry) => entry.part === undefined).map((entry) => entry.key);
  const noteName = `${JSON.stringify(elidedFieldsKey)}:`;
  if (left.length > 0) parts.push(`${noteName}${JSON.stringify(fieldsNote(left, budget - (used - noteReserve) - noteName.length - 1))}`);
  return `{${parts.join(',')}}`;
}

/** The JSON of a JSON value within `budget` characters, or undefined when not even a shortened form fits. */
function render(value: unknown, budget: number): string | undefined {
  const whole = JSON.stringify(value);
  if (whole.length <= budget) return whole;
  if (Array.isArray(value)) return renderArray(value, budget);
  if (typeof value === 'object' && value !== null) return renderObject(value as Record<string, unknown>, budget);
  // A string or number too long for the room left is left out whole by the object or array holding it.
  return undefined;
}

/** The first `length` characters of `text`, without splitting a surrogate pair. */
function head(text: string, length: number): string {
  const cut = text.slice(0, length);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * JSON text of `value` for a failure message, in about `budget` characters, that is always valid
 * JSON and never cuts a value in the middle. What does not fit is left out whole and counted: an
 * object names the fields it leaves out under the key `"…"` (`{"id":"r1","…":"2 fields left out:
 * text, metadata"}`), an array ends with a string counting the items it leaves out. Shorter fields
 * later in an object are still shown after a long one is left out, so the scope and handle of a
 * record with a long text stay readable. Only a lone string longer than the budget is shortened,
 * inside its quotes, with the number of characters left out. A value JSON cannot represent is
 * shown with `String`.
 */
export function previewJson(value: unknown, budget = 500): string {
  let whole: string | undefined;
  try {
    whole = JSON.stringify(value);
  } catch {
    return String(value);
  }
  if (whole === undefined) return String(value);
  if (whole.length <= budget) return whole;
  const plain: unknown = JSON.parse(whole);
  if (Array.isArray(plain)) return renderArray(plain, Math.max(budget, 2 + noteReserve)) as string;
  if (typeof plain === 'object' && plain !== null) return renderObject(plain as Record<string, unknown>, Math.max(budget, 2 + noteReserve)) as string;
  if (typeof plain === 'string') {
    const shown = head(plain, budget);
    return JSON.stringify(`${shown}… (${plain.length - shown.length} more characters)`);
  }
  return whole;
}
