import { compareBson, isDate } from './bson-order.js';
import type { BucketRecord, BucketSpan, PartitionBuckets } from '../port/partitions.js';

/** A collection of bucket records by `_id`: a partition, a shadow or a replaced copy. */
export type Collection = Map<string, BucketRecord>;

/**
 * `run`'s result as a promise, a throw as a rejection: the port's methods are asynchronous, and a
 * caller awaiting one must see a refusal the way the Mongo store gives it.
 */
export const settle = <T>(run: () => T): Promise<T> => new Promise<T>((resolve) => resolve(run()));

/**
 * Records leave and enter the store as copies: a caller's object never aliases a stored one.
 * Written out rather than `structuredClone`, whose Dates come from another realm under jest.
 */
export function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (isDate(value)) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => copy(item)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = copy(item);
  return out as T;
}

export function startOf(record: BucketRecord): number {
  const start = record.start;
  return isDate(start) ? start.getTime() : Number.NaN;
}

export function ticksOf(record: BucketRecord): number {
  return typeof record.n === 'number' ? record.n : 0;
}

/** Whether `record` lies in `span` (slot start in `[fromMs, toMs)`, with ticks if asked). */
export function inSpan(record: BucketRecord, span: BucketSpan | undefined): boolean {
  if (span === undefined) return true;
  const start = startOf(record);
  if (!(start >= span.fromMs && start < span.toMs)) return false;
  return span.withTicks !== true || ticksOf(record) > 0;
}

/** `_id` order as the server's index keeps it (strings by their UTF-8 bytes). */
export const byId = (a: BucketRecord, b: BucketRecord): number => compareBson(a._id, b._id);

/** The collections of one in-memory database, by name. */
export class Collections {
  private readonly all = new Map<string, Collection>();

  has(name: string): boolean {
    return this.all.has(name);
  }

  get(name: string): Collection | undefined {
    return this.all.get(name);
  }

  /** The collection, created (empty) if missing; `created` tells which. */
  ensure(name: string): { collection: Collection; created: boolean } {
    const found = this.all.get(name);
    if (found) return { collection: found, created: false };
    const collection: Collection = new Map();
    this.all.set(name, collection);
    return { collection, created: true };
  }

  drop(name: string): boolean {
    return this.all.delete(name);
  }

  /** Renames `from` to `to`, replacing `to` (renameCollection with dropTarget). */
  rename(from: string, to: string): void {
    const collection = this.all.get(from);
    if (!collection) throw new Error(`collection ${from} does not exist`);
    this.all.delete(from);
    this.all.set(to, collection);
  }

  names(): string[] {
    return [...this.all.keys()].sort();
  }

  /** Records of a collection (none if it is missing), in `_id` order. */
  records(name: string, span?: BucketSpan): BucketRecord[] {
    const collection = this.all.get(name);
    if (!collection) return [];
    return [...collection.values()].filter((record) => inSpan(record, span)).sort(byId);
  }
}

/** `items` as an asynchronous stream (what the port's scans hand out). */
function streamOf<T>(items: readonly T[]): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      let next = 0;
      return {
        next: (): Promise<IteratorResult<T>> =>
          Promise.resolve(
            next < items.length
              ? { value: items[next++]!, done: false }
              : { value: undefined, done: true },
          ),
      };
    },
  };
}

/** A collection seen whole through the port. */
export class MemoryPartitionBuckets implements PartitionBuckets {
  constructor(
    private readonly collections: Collections,
    readonly name: string,
  ) {}

  count(span?: BucketSpan): Promise<number> {
    return Promise.resolve(this.collections.records(this.name, span).length);
  }

  /** Always in `_id` order: asked for or not, an order is allowed. Read when called. */
  scan(span?: BucketSpan, _options?: { inIdOrder?: boolean }): AsyncIterable<BucketRecord> {
    return streamOf(this.collections.records(this.name, span).map(copy));
  }

  byIds(ids: readonly string[]): Promise<BucketRecord[]> {
    const collection = this.collections.get(this.name);
    const found = new Set(ids);
    return Promise.resolve(
      [...found].flatMap((id) => {
        const record = collection?.get(id);
        return record ? [copy(record)] : [];
      }),
    );
  }

  replace(records: readonly BucketRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const { collection } = this.collections.ensure(this.name);
    for (const record of records) collection.set(record._id, copy(record));
    return Promise.resolve();
  }

  drop(): Promise<boolean> {
    return Promise.resolve(this.collections.drop(this.name));
  }
}
