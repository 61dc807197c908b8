import { MemoryLexicalIndex, type LexicalRange } from '@memplane/rules';
import type { ItemRow, ScopeRange, ServiceMetaRow } from '../engine-store-rows';
import { blockKeyInRange, blockKeyOf, blockKeysOf, blockSize, rangeOfBlock, scopeFilterOf, scopeTokensOf, sequenceKeyOf, type LexicalPlace } from '../lexical/lexical-places';
import { engineWindowShape, type EngineLexicalSource } from '../lexical/lexical-search';
import type { Journal } from './memory-journal';

/**
 * The lexical index of the in-memory store: `MemoryLexicalIndex` of `@memplane/rules` (posting
 * lists, totals and windows kept on write) with the places of the engine's items (blocks,
 * sequences, rowids, numbered as every store numbers them). Every change inside a transaction
 * records its undo in the store's journal.
 */
export class MemoryLexicalState implements EngineLexicalSource {
  private readonly index = new MemoryLexicalIndex<'body'>({ fields: ['body'], windows: engineWindowShape });
  private readonly blocks = new Map<string, { block: number; next: number }>();
  private readonly sequences = new Map<string, { sequence: number; next: number }>();
  private readonly places = new Map<string, LexicalPlace>();
  private readonly items = new Map<number, string>();

  constructor(
    private readonly journal: Journal,
    private readonly meta: () => ServiceMetaRow | undefined,
    private readonly rowOf: (itemId: string) => ItemRow | undefined,
  ) {}

  /**
   * Indexes a new item, or an item whose row replaces `previous`: it keeps its place, and its
   * terms are indexed again when its tokens changed.
   */
  put(item: ItemRow, previous: ItemRow | undefined): void {
    const place = this.places.get(item.id);
    if (place === undefined) {
      this.add(item, this.allocate(item));
      return;
    }
    if (previous === undefined || previous.lexicalTokens === item.lexicalTokens) return;
    this.unindex(previous, place);
    this.add(item, place);
  }

  /** The index's own string for a token an item holds, so rows share it instead of keeping copies. */
  canonical(token: string): string {
    return this.index.canonical(token);
  }

  /** Takes an item out of the index. */
  remove(item: ItemRow): void {
    const place = this.places.get(item.id);
    if (place === undefined) return;
    this.unindex(item, place);
    this.places.delete(item.id);
    this.items.delete(place.rowid);
    this.undo(() => {
      this.places.set(item.id, place);
      this.items.set(place.rowid, item.id);
    });
  }

  async score(range: ScopeRange, terms: readonly string[], windows: boolean) {
    const ranges = this.rangesOf(range);
    const meta = this.meta();
    const filter = meta === undefined ? undefined : scopeFilterOf(meta.scopeFields, meta.boundaryFields, range);
    if (windows) return this.index.scoreWithWindows(terms, ranges, filter);
    return { documents: this.index.score('body', terms, ranges, filter), windows: new Map(), bestWindow: new Map() };
  }

  async windowMembers(keys: readonly number[]) {
    return this.index.windowMembers(keys);
  }

  async itemsOf(rowids: readonly number[]) {
    const found = new Map<number, ItemRow>();
    for (const rowid of rowids) {
      const itemId = this.items.get(rowid);
      const item = itemId === undefined ? undefined : this.rowOf(itemId);
      if (item !== undefined) found.set(rowid, item);
    }
    return found;
  }

  private rangesOf(range: ScopeRange): LexicalRange[] {
    const meta = this.meta();
    if (meta === undefined) return [];
    const keys = blockKeysOf(meta.boundaryFields, range);
    const blocks = keys === undefined ? [...this.blocks].filter(([key]) => blockKeyInRange(meta.boundaryFields, key, range)).map(([, entry]) => entry) : keys.flatMap((key) => this.blocks.get(key) ?? []);
    return blocks.map((entry) => rangeOfBlock(entry.block));
  }

  private allocate(item: ItemRow): LexicalPlace {
    const meta = this.meta();
    const blockKey = blockKeyOf(meta?.boundaryFields ?? [], item.scope);
    const sequenceKey = sequenceKeyOf(item.scope);
    const block = this.blocks.get(blockKey) ?? { block: this.blocks.size, next: 0 };
    const sequence = this.sequences.get(sequenceKey) ?? { sequence: this.sequences.size, next: 0 };
    const place = { rowid: block.block * blockSize + block.next, block: block.block, sequence: sequence.sequence, position: sequence.next };
    this.replace(this.blocks, blockKey, { block: block.block, next: block.next + 1 });
    this.replace(this.sequences, sequenceKey, { sequence: sequence.sequence, next: sequence.next + 1 });
    this.places.set(item.id, place);
    this.items.set(place.rowid, item.id);
    this.undo(() => {
      this.places.delete(item.id);
      this.items.delete(place.rowid);
    });
    return place;
  }

  private add(item: ItemRow, place: LexicalPlace): void {
    const meta = this.meta();
    const document = {
      rowid: place.rowid,
      block: place.block,
      tokens: { body: item.lexicalTokens },
      filterTokens: meta === undefined ? [] : scopeTokensOf(meta.scopeFields, meta.boundaryFields, item.scope),
      sequence: { id: place.sequence, position: place.position },
    };
    this.index.insertMany([document]);
    this.undo(() => this.index.delete(place.rowid));
  }

  private unindex(indexed: ItemRow, place: LexicalPlace): void {
    this.index.delete(place.rowid);
    this.undo(() => this.add(indexed, place));
  }

  private replace<Value>(map: Map<string, Value>, key: string, value: Value): void {
    const had = map.has(key);
    const previous = map.get(key) as Value;
    map.set(key, value);
    this.undo(() => (had ? map.set(key, previous) : map.delete(key)));
  }

  private undo(step: () => void): void {
    this.journal.entries?.push(step);
  }
}
