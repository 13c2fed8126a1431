import { afterEach } from '@jest/globals';
import type { BucketRecord, RollupStore } from '../../src/port/index.js';

/** A store under contract, fresh and empty, and how to let it go. */
export interface OpenedStore {
  store: RollupStore;
  close(): Promise<void>;
}

export type OpenStore = () => Promise<OpenedStore>;

export interface ContractOptions {
  /** fast-check runs per property (each run opens a fresh store). Default 100. */
  propertyRuns?: number;
}

/**
 * Opens stores for one test and closes them after it, whatever the outcome: `use()` in a test
 * (or in each run of a property) gives a fresh, empty store.
 */
export function storesFor(open: OpenStore): { use(): Promise<RollupStore> } {
  const opened: OpenedStore[] = [];
  afterEach(async () => {
    const closing = opened.splice(0);
    await Promise.all(closing.map((each) => each.close()));
  });
  return {
    async use() {
      const each = await open();
      opened.push(each);
      return each.store;
    },
  };
}

/** Every bucket record of every bucket collection, by collection, in `_id` order. */
export async function snapshot(store: RollupStore): Promise<Record<string, BucketRecord[]>> {
  const all: Record<string, BucketRecord[]> = {};
  for (const name of await store.listNames()) {
    if (!/^(rollup|shadow|replaced)_/.test(name)) continue;
    const records: BucketRecord[] = [];
    for await (const record of store.partition(name).scan(undefined, { inIdOrder: true }))
      records.push(record);
    all[name] = records.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  }
  return canonical(all) as Record<string, BucketRecord[]>;
}

/** Key order is the server's business: compare as sorted plain data. */
export function canonical(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.getTime() };
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}
