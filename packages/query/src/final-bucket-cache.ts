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
  private readonly entries: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<readonly FieldSlot[]>>();
  private readonly observe: NonNullable<FinalBucketCacheOptions['observe']>;

  constructor(options: FinalBucketCacheOptions) {
    this.observe = options.observe ?? (() => {});
    this.entries = new LRUCache({
      maxSize: options.maxBytes,
      sizeCalculation: sizeOf,
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') this.observe('evicted', 1);
      },
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
    const hit = this.entries.get(key);
    if (Array.isArray(hit)) {
      this.observe('hit', 1);
      return hit as readonly FieldSlot[];
    }
    // Identical windows arriving together wait for one read.
    const pending = this.inFlight.get(key);
    if (pending) {
      this.observe('hit', 1);
      return pending;
    }
    this.observe('miss', 1);
    const reading = read(undefined).then((docs) => {
      this.entries.set(key, docs);
      return docs;
    });
    this.inFlight.set(key, reading);
    try {
      return await reading;
    } finally {
      this.inFlight.delete(key);
    }
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
