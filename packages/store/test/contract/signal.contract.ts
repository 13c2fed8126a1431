import { beforeEach, describe, expect, it } from '@jest/globals';
import type { RollupStore } from '../../src/port/index.js';
import {
  ReadAbortedError,
  ReadTimeoutError,
  StoreErrorCode,
  isReadAborted,
} from '../../src/store-error.js';
import { storesFor, type OpenStore } from './open-store.js';
import { SERIES, T0, tick } from './ticks.js';

const HOUR = 3_600_000;
const S0 = SERIES[0].seriesKey;
const SCOPE = { level: 'minute', fromMs: T0, toMs: T0 + HOUR } as const;

/** Every read of the port, as one request would ask them. */
function everyRead(store: RollupStore): Record<string, () => Promise<unknown>> {
  const part = { level: 'minute', start: T0 } as const;
  return {
    readSlots: () =>
      store.readSlots({ ...SCOPE, series: S0, field: 'speed', detail: 'slot', limit: 10 }),
    readPart: () => store.readPart({ part, series: [S0], field: 'speed', whole: false }),
    readMetricPart: () =>
      store.readMetricPart({
        part,
        metric: SERIES[0].metric,
        tags: {},
        field: 'speed',
        whole: false,
        limit: 10,
      }),
    countBuckets: () => store.countBuckets(SCOPE),
    findSeries: () => store.findSeries(SCOPE, 10),
    listMetrics: () => store.listMetrics(SCOPE, 5),
    newestBucket: () => store.newestBucket('minute', S0, 3),
    metricDensities: () => store.metricDensities('minute', T0, T0 + HOUR),
  };
}

export function signalContract(open: OpenStore): void {
  const stores = storesFor(open);
  let store: RollupStore;

  describe('withSignal', () => {
    beforeEach(async () => {
      store = await stores.use();
      await store.writer('minute').apply([tick(0, T0 + 5_000, 0, { speed: 10 })]);
    });

    it('reads as the store does while the signal has not aborted', async () => {
      const bound = store.withSignal(new AbortController().signal);
      for (const [name, read] of Object.entries(everyRead(bound)))
        await expect(read().then((found) => [name, found])).resolves.toEqual([
          name,
          await everyRead(store)[name]!(),
        ]);
      expect(bound.capabilities).toEqual(store.capabilities);
    });

    it('starts no read once the signal has aborted, rejecting with the reason', async () => {
      const controller = new AbortController();
      const bound = store.withSignal(controller.signal);
      controller.abort(new ReadAbortedError('the client went away'));
      for (const [name, read] of Object.entries(everyRead(bound))) {
        const failure = await read().then(
          () => `${name} answered`,
          (err: unknown) => err,
        );
        expect(isReadAborted(failure)).toBe(true);
        expect((failure as ReadAbortedError).message).toBe('the client went away');
      }
      // The store itself is not bound: its reads go on for other requests.
      await expect(everyRead(store).countBuckets!()).resolves.toBe(1);
    });

    it("passes a deadline's ReadTimeoutError on, and types a reason-less abort", async () => {
      const timedOut = new AbortController();
      timedOut.abort(new ReadTimeoutError('past API_READ_TIMEOUT_MS', 5));
      await expect(store.withSignal(timedOut.signal).countBuckets(SCOPE)).rejects.toMatchObject({
        code: StoreErrorCode.ReadTimeout,
        retriable: true,
      });
      const bare = new AbortController();
      bare.abort();
      await expect(store.withSignal(bare.signal).findSeries(SCOPE, 1)).rejects.toMatchObject({
        code: StoreErrorCode.ReadAborted,
        retriable: true,
      });
    });
  });
}
