import type { Level } from '@tickertape/buckets';
import type { FieldSlot } from '@tickertape/store';
import { LRUCache } from 'lru-cache';

export type CacheEvent = 'hit' | 'miss' | 'evicted';

export interface FinalBucketCacheOptions {
  /** The most bytes the cached buckets may take, as estimated from their JSON. */
  maxBytes: number;
  /** Told every hit, miss and eviction (the API counts them in /metrics). */
  observe?: (event: CacheEvent, count: number) => void;
}

/** Which buckets of one final slot: listed series, or the first of a metric's by series key. */
export type Selection =
  | { series: readonly string[] }
  | { metric: string; tags: Readonly<Record<string, string>>; limit: number };

export interface SlotRead {
  level: Level;
  start: number;
  field: string;
  /** The level's generation the slot was judged final under (FinalityView.generation). */
  generation: number;
}

/** A metric's read of one slot, as lru-cache's fetch context. */
type ReadAll = () => Promise<readonly FieldSlot[]>;

// A bucket known to be absent is remembered too: a final slot stays so.
const ABSENT = Symbol('absent');
type Entry = FieldSlot | readonly FieldSlot[] | typeof ABSENT;

// UTF-16 characters of the JSON plus the entry's own overhead: an estimate, in proportion.
const sizeOf = (value: Entry) => 64 + 2 * (value === ABSENT ? 0 : JSON.stringify(value).length);

/**
 * Final buckets kept in memory, by slot, field and generation. A final bucket changes only
 * through a swap or a retention drop, and both bump the level's generation, so an entry never
 * needs invalidating: the next generation's reads miss it and LRU order lets it age out. What
 * is cached is the whole field of each bucket (a `whole` part read: its totals and every
 * sub-slot), so windows that overlap a slot — the seed's 10 minutes, a minute later — share it.
 * Never holds an open slot.
 */
export class FinalBucketCache {
  private readonly entries: LRUCache<string, Entry, ReadAll>;
  private readonly observe: NonNullable<FinalBucketCacheOptions['observe']>;

  constructor(options: FinalBucketCacheOptions) {
    this.observe = options.observe ?? (() => {});
    this.entries = new LRUCache({
      maxSize: options.maxBytes,
      sizeCalculation: sizeOf,
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') this.observe('evicted', 1);
      },
      // A metric's buckets of a slot: read once, by the first window that misses them.
      fetchMethod: (_key, _stale, { context: read }) => read(),
    });
  }

  /** Bytes the entries are estimated to take. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The buckets of `selection` in a final slot: from memory where known, the rest through
   * `read` (given the series still missing for a listed selection, all of them otherwise), whose
   * answer is kept.
   */
  async read(
    slot: SlotRead,
    selection: Selection,
    read: (missing: readonly string[] | undefined) => Promise<readonly FieldSlot[]>,
  ): Promise<readonly FieldSlot[]> {
    const base = `${slot.generation}|${slot.level}|${slot.start}|${slot.field}`;
    if ('series' in selection) return this.bySeries(base, selection.series, read);
    const key = `${base}|m|${selection.metric}|${JSON.stringify(Object.entries(selection.tags).sort())}|${selection.limit}`;
    // Identical windows arriving together wait for one read: lru-cache's fetch coalesces them.
    const status: LRUCache.Status<string, Entry, ReadAll> = {};
    const reading = this.entries.fetch(key, { context: () => read(undefined), status });
    this.observe(status.fetch === 'hit' || status.fetch === 'inflight' ? 'hit' : 'miss', 1);
    return (await reading) as readonly FieldSlot[];
  }

  private async bySeries(
    base: string,
    series: readonly string[],
    read: (missing: readonly string[]) => Promise<readonly FieldSlot[]>,
  ): Promise<readonly FieldSlot[]> {
    const found: FieldSlot[] = [];
    const missing: string[] = [];
    for (const key of series) {
      const hit = this.entries.get(`${base}|s|${key}`);
      if (hit === undefined) missing.push(key);
      else if (hit !== ABSENT) found.push(hit as FieldSlot);
    }
    if (series.length > missing.length) this.observe('hit', series.length - missing.length);
    if (missing.length === 0) return found;
    this.observe('miss', missing.length);
    const docs = await read(missing);
    const bySeries = new Map(docs.map((doc) => [doc.series, doc]));
    for (const key of missing) {
      const doc = bySeries.get(key);
      this.entries.set(`${base}|s|${key}`, doc ?? ABSENT);
      if (doc) found.push(doc);
    }
    return found;
  }
}
