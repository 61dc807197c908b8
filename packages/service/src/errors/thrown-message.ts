/**
 * The message of anything thrown, for logs and reports: an error's message, else the value as
 * text. Never throws itself: a thrown value can be as hostile as the one that threw it (a proxy
 * whose traps throw, an object whose `toString` throws), and then it reads as `fallback`.
 */
export function thrownMessage(thrown: unknown, fallback = 'an unreadable value was thrown'): string {
  try {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return typeof message === 'string' ? message : fallback;
  } catch {
    return fallback;
  }
}
