import type { BucketReads } from './bucket-reads.js';
import type { BucketWrites } from './bucket-writes.js';
import type { StoreCapabilities } from './capabilities.js';
import type { Finality } from './finality.js';
import type { History } from './history.js';
import type { Partitions } from './partitions.js';
import type { StorageStats } from './storage-stats.js';
import type { Upkeep } from './upkeep.js';

/**
 * Everything the rest of tickertape asks of stored rollups, in its own words: apply a flush, read
 * parts of a window and slots of a range, find series and metrics, partitions and watermarks,
 * shells, retention, the level policy, history's runs and shadows, what the database holds
 * (the benchmark's sizes), and the server's capabilities.
 * The MongoDB implementation (`mongo/`) is the only code that speaks the driver's language; the
 * in-memory one (`memory/`) is the reference and the unit tests' store. Both pass the contract
 * suite (`test/contract/`): that suite is how we know this port is whole.
 */
export interface RollupStore
  extends BucketWrites, BucketReads, Partitions, Finality, Upkeep, History, StorageStats {
  readonly capabilities: StoreCapabilities;
  /** Round trip to the server (health checks). */
  ping(): Promise<void>;
  /**
   * This store with its BucketReads bound to `signal` (one API request's): once it aborts no
   * read starts, and a read under way is cancelled (the MongoDB store hands the signal to the
   * driver); both reject with the reason (`abortReasonOf`: a ReadAbortedError, or the caller's
   * ReadTimeoutError). Everything else is this store's own, shared.
   */
  withSignal(signal: AbortSignal): RollupStore;
}
