import type { RollupStore } from '@tickertape/store';

/** A store a suite reads through, and how to let it go. */
export interface OpenedStore {
  store: RollupStore;
  close(): Promise<void>;
}
