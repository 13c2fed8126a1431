import type { BucketReads } from './port/bucket-reads.js';
import type { RollupStore } from './port/rollup-store.js';
import { abortReasonOf } from './store-error.js';

/** Every BucketReads method, checked by the compiler: a read added to the port is bound too. */
const READS: Record<keyof BucketReads, true> = {
  readSlots: true,
  readPart: true,
  readMetricPart: true,
  countBuckets: true,
  findSeries: true,
  listMetrics: true,
  newestBucket: true,
  metricDensities: true,
};

const isRead = (key: string | symbol): key is keyof BucketReads =>
  typeof key === 'string' && Object.hasOwn(READS, key);

/**
 * `store` with its reads answered by `reads` (the same store's reads under a signal). The rest is
 * `store` itself, bound to it: state such as the newest cluster time seen stays shared.
 */
export function withReads(store: RollupStore, reads: BucketReads): RollupStore {
  return new Proxy(store, {
    get(target, key) {
      if (isRead(key)) return (reads[key] as (...args: unknown[]) => unknown).bind(reads);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/**
 * `reads` that refuse to start once `signal` has aborted (a rejected promise with why): all a
 * store whose reads finish in the call (the memory store) needs to honour a signal.
 */
export function checkedReads(reads: BucketReads, signal: AbortSignal): BucketReads {
  return new Proxy(reads, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (!isRead(key) || typeof value !== 'function') return value;
      return (...args: unknown[]): unknown =>
        signal.aborted
          ? Promise.reject(abortReasonOf(signal))
          : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
}
