import { seriesKey } from './series-key.js';

/** One step of a path: the key of the series whose path ends here, and the steps further on. */
interface Node {
  key: string | undefined;
  next: Map<string, Node> | undefined;
}

export interface SeriesKeyCacheOptions {
  /** Series remembered at most; a cache that is full is emptied and fills anew. */
  maxSeries?: number;
  /** Longer keys are computed every time and never stored, so each series' share of memory is bounded. */
  maxKeyLength?: number;
}

export const DEFAULT_SERIES_KEY_CACHE: Readonly<Required<SeriesKeyCacheOptions>> = Object.freeze({
  maxSeries: 20_000,
  maxKeyLength: 512,
});

const emptyNode = (): Node => ({ key: undefined, next: undefined });

/**
 * `seriesKey(metric, tags)` for a stream in which the same series come back tick after tick,
 * without sorting tags or building a string when the series was seen before (the key of every
 * tick costs several µs otherwise, a tenth of a worker's CPU). Exact: a series is found by its
 * metric and then each of its tags' keys and values in the order `Object.keys` lists them — a
 * trie of Maps compared by string equality, nothing hashed into a shorter key — so a hit means
 * the same metric and the same tags, and the key stored there is what `seriesKey` returned for
 * them. Tags listed in another order take another path to the same key.
 *
 * Emptying when full rather than evicting the least recent keeps a hit at a few Map lookups; a
 * worker that sees more series than `maxSeries` loses little, since a miss costs `seriesKey`
 * plus one insertion.
 */
export class SeriesKeyCache {
  private root = emptyNode();
  private stored = 0;
  private readonly maxSeries: number;
  private readonly maxKeyLength: number;

  constructor(options: SeriesKeyCacheOptions = {}) {
    this.maxSeries = options.maxSeries ?? DEFAULT_SERIES_KEY_CACHE.maxSeries;
    this.maxKeyLength = options.maxKeyLength ?? DEFAULT_SERIES_KEY_CACHE.maxKeyLength;
  }

  /** Series stored now: at most `maxSeries`. */
  get size(): number {
    return this.stored;
  }

  keyOf(metric: string, tags: Readonly<Record<string, string>>): string {
    const names = Object.keys(tags);
    let node = this.root.next?.get(metric);
    for (let i = 0; i < names.length && node !== undefined; i += 1) {
      const name = names[i]!;
      node = node.next?.get(name)?.next?.get(tags[name]!);
    }
    if (node?.key !== undefined) return node.key;
    const key = seriesKey(metric, tags);
    if (key.length <= this.maxKeyLength) this.store(metric, names, tags, key);
    return key;
  }

  private store(
    metric: string,
    names: readonly string[],
    tags: Readonly<Record<string, string>>,
    key: string,
  ): void {
    if (this.stored >= this.maxSeries) {
      this.root = emptyNode();
      this.stored = 0;
    }
    let node = step(this.root, metric);
    for (const name of names) node = step(step(node, name), tags[name]!);
    node.key = key;
    this.stored += 1;
  }
}

function step(node: Node, part: string): Node {
  node.next ??= new Map();
  let next = node.next.get(part);
  if (next === undefined) node.next.set(part, (next = emptyNode()));
  return next;
}
