/** Undo steps of the running transaction; undefined outside one. */
export interface Journal {
  entries: Array<() => void> | undefined;
}

/**
 * A map whose writes inside a transaction record how to undo them, so a rollback costs the size
 * of the transaction, not of the store.
 */
export class JournaledMap<Key, Value> extends Map<Key, Value> {
  private journal: Journal | undefined;

  static over<Key, Value>(journal: Journal): JournaledMap<Key, Value> {
    const map = new JournaledMap<Key, Value>();
    map.journal = journal;
    return map;
  }

  override set(key: Key, value: Value): this {
    const entries = this.journal?.entries;
    if (entries !== undefined) {
      const had = super.has(key);
      const previous = super.get(key) as Value;
      entries.push(() => (had ? super.set(key, previous) : super.delete(key)));
    }
    return super.set(key, value);
  }

  override delete(key: Key): boolean {
    const entries = this.journal?.entries;
    if (entries !== undefined && super.has(key)) {
      const previous = super.get(key) as Value;
      entries.push(() => super.set(key, previous));
    }
    return super.delete(key);
  }
}
