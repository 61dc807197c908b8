/** What every resolved secret value is replaced by before anything is stored or returned. */
export const redactedText = '[redacted]';

/**
 * The one place where resolved secret values are taken out of data. The service feeds it every
 * value it resolves, and applies it where data leaves the service: the store's writes (operation
 * log, hook deliveries, extraction jobs, cost and finance events, activity), each operation's
 * outcome (results, warnings, usage and raw payloads, so the cost ledger gets clean copies
 * too), the errors it throws, and what it reports to `onBackgroundError`.
 */
export interface SecretRedactor {
  /** Remembers secret values (and their URL, JSON and base64 encodings) to redact from now on. */
  add(values: Iterable<string>): void;
  /** Whether any value is known; when none is, every method returns its input untouched at once. */
  readonly active: boolean;
  /** The text with every known value replaced by `[redacted]`. */
  redactText(text: string): string;
  /**
   * The value with every string (and object key) redacted, deeply: arrays and plain objects are
   * copied only where something changed, errors are redacted in place (see `redactError`).
   */
  redact<Value>(value: Value): Value;
  /**
   * The error with its message, stack, own properties and `cause` chain redacted, in place
   * (so its class and identity stay). A value that is not an error is redacted like any value.
   * A part that throws when it is read (a proxy, a getter) becomes `[unreadable]`.
   */
  redactError<Value>(error: Value): Value;
}

/** What replaces a value the redactor cannot read (one that throws when read): it cannot be checked, so it is not passed on. */
export const unreadableText = '[unreadable]';

const maximumDepth = 32;

function encodingsOf(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1), Buffer.from(value).toString('base64')]);
  try {
    forms.add(encodeURI(value));
  } catch {
    // A lone surrogate cannot be URI-encoded; the other forms stay.
  }
  return [...forms].filter((form) => form !== '');
}

/** Creates an empty redactor. */
export function createSecretRedactor(): SecretRedactor {
  const known = new Set<string>();
  // Longest first, so a secret that contains another is replaced whole.
  let forms: string[] = [];
  // One pattern of every form: a single scan tells whether a string holds any of them.
  let anyForm = /$^/;

  function redactText(text: string): string {
    if (!anyForm.test(text)) return text;
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join(redactedText);
    return result;
  }

  function redactErrorAt(error: Error, depth: number, seen: Map<unknown, unknown>): Error {
    if (seen.has(error)) return error;
    seen.set(error, error);
    const assign = (key: string, value: unknown) => {
      try {
        Object.defineProperty(error, key, { value, writable: true, configurable: true, enumerable: Object.prototype.propertyIsEnumerable.call(error, key) });
      } catch {
        // A frozen error keeps its property; its text still goes through redactText where the service logs it.
      }
    };
    for (const key of new Set([...Object.getOwnPropertyNames(error), 'message', 'stack', 'cause'])) {
      const value = (error as unknown as Record<string, unknown>)[key];
      if (value === undefined) continue;
      const redacted = redactAt(value, depth + 1, seen);
      if (redacted !== value) assign(key, redacted);
    }
    return error;
  }

  function redactAt(value: unknown, depth: number, seen: Map<unknown, unknown>): unknown {
    if (typeof value === 'string') return redactText(value);
    if (typeof value !== 'object' || value === null || depth > maximumDepth) return value;
    try {
      return redactObjectAt(value, depth, seen);
    } catch {
      // A value that throws when it is read (a proxy, a getter) cannot be checked, so it is not passed on.
      return unreadableText;
    }
  }

  function redactObjectAt(value: object, depth: number, seen: Map<unknown, unknown>): unknown {
    if (value instanceof Error) return redactErrorAt(value, depth, seen);
    if (seen.has(value)) return seen.get(value);
    if (Array.isArray(value)) {
      seen.set(value, value);
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const redacted = redactAt(item, depth + 1, seen);
        if (redacted !== item) (copy ??= [...value])[index] = redacted;
      });
      if (copy !== undefined) seen.set(value, copy);
      return copy ?? value;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    seen.set(value, value);
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    let renamed = false;
    for (const key of Object.keys(record)) {
      const item = record[key];
      const redacted = redactAt(item, depth + 1, seen);
      if (redacted !== item) (copy ??= { ...record })[key] = redacted;
      if (anyForm.test(key)) renamed = true;
    }
    if (renamed) {
      // Rare: a secret in a key. Rebuild with every key redacted.
      const source = copy ?? record;
      copy = Object.fromEntries(Object.keys(source).map((key) => [redactText(key), source[key]]));
    }
    if (copy === undefined) return value;
    seen.set(value, copy);
    return copy;
  }

  return {
    add(values) {
      let grew = false;
      for (const value of values) {
        if (typeof value !== 'string' || value === '' || known.has(value)) continue;
        known.add(value);
        grew = true;
      }
      if (!grew) return;
      forms = [...new Set([...known].flatMap(encodingsOf))].sort((left, right) => right.length - left.length);
      anyForm = new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));
    },
    get active() {
      return forms.length > 0;
    },
    redactText: (text) => (forms.length === 0 ? text : redactText(text)),
    redact: <Value>(value: Value): Value => (forms.length === 0 ? value : (redactAt(value, 0, new Map()) as Value)),
    redactError: <Value>(error: Value): Value => (forms.length === 0 ? error : (redactAt(error, 0, new Map()) as Value)),
  };
}
