import { bucketId, LEVELS, partitionOf, slotStart } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import {
  InFlight,
  msUntilDue,
  stocksProfile,
  TickProducer,
  ticksDue,
  totalTicks,
  trafficProfile,
} from '@tickertape/producer';
import { seriesKey, type Tick, type TickCodec } from '@tickertape/tick';
import type { Kafka } from 'kafkajs';
import type { RollupStore } from '@tickertape/store';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './stats.js';
import type { SeriesLoad } from './tick-set.js';

export interface LatencyResult {
  targetRate: number;
  achievedRate: number;
  ticks: number;
  markers: number;
  visible: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Marker {
  id: string;
  collection: string;
  sentAt: number;
  visibleAt?: number;
}

export const MARKER_METRIC = 'bench.marker';
/** How often the minute buckets of pending markers are looked up by _id. */
const POLL_MS = 20;
/** Markers not visible this long after the last one was sent count as never visible. */
const GRACE_MS = 30_000;
const MAX_PENDING = 5000;

/**
 * Step 4, with one minute and one hour worker already running on `topic`: produces the two
 * profiles at `rate` ticks/s with the wall clock as event time, plus a marker tick every
 * `markerEveryMs` on a series of its own, and measures for each marker the time from `send` to
 * the moment its minute bucket can be read back by `_id`.
 */
export async function measureLatency(options: {
  kafka: Kafka;
  codec: TickCodec;
  topic: string;
  store: RollupStore;
  rate: number;
  durationMs: number;
  markerEveryMs: number;
  stocks: SeriesLoad;
  traffic: SeriesLoad;
  seed: number;
  logger: Logger;
}): Promise<LatencyResult> {
  const { rate, durationMs } = options;
  const profiles = [
    stocksProfile({ series: options.stocks.series, seed: options.seed }),
    trafficProfile({ series: options.traffic.series, seed: options.seed + 1 }),
  ];
  // The two profiles in the proportion the loaded tick set has them.
  const stockShare =
    (options.stocks.series * options.stocks.perSecond) /
    (options.stocks.series * options.stocks.perSecond +
      options.traffic.series * options.traffic.perSecond);
  let share = 0;
  const nextTick = (ts: number): Tick => {
    share += stockShare;
    if (share >= 1) {
      share -= 1;
      return profiles[0]!.next(ts);
    }
    return profiles[1]!.next(ts);
  };

  const producer = await TickProducer.connect(options.kafka, options.codec, {
    topic: options.topic,
    source: 'bench-latency',
  });
  const markers: Marker[] = [];
  const inFlight = new InFlight();
  let failure: unknown;
  const asError = (err: unknown) =>
    err instanceof Error ? err : new Error(`produce failed: ${JSON.stringify(err)}`);
  const track = (sent: Promise<void>) =>
    inFlight.track(
      sent.catch((err: unknown) => {
        failure ??= err;
      }),
    );
  const sendMarker = () => {
    const ts = Date.now();
    const tags = { marker: String(markers.length) };
    const key = seriesKey(MARKER_METRIC, tags);
    markers.push({
      id: bucketId(LEVELS[0], key, slotStart(LEVELS[0], ts)),
      collection: partitionOf(LEVELS[0], ts).name,
      sentAt: performance.now(),
    });
    track(
      producer.send({
        metric: MARKER_METRIC,
        tags,
        ts,
        fields: { seq: markers.length },
        strings: {},
      }),
    );
  };

  let producing = true;
  const poller = (async () => {
    let lastSent = performance.now();
    while (producing || performance.now() - lastSent < GRACE_MS) {
      if (producing) lastSent = performance.now();
      const pending = markers.filter((m) => m.visibleAt === undefined);
      if (!producing && pending.length === 0) return;
      const byCollection = new Map<string, string[]>();
      for (const m of pending) {
        const ids = byCollection.get(m.collection);
        if (ids) ids.push(m.id);
        else byCollection.set(m.collection, [m.id]);
      }
      for (const [collection, ids] of byCollection) {
        const found = await options.store.partition(collection).byIds(ids);
        const now = performance.now();
        const seen = new Set(found.map((doc) => doc._id));
        for (const m of pending) if (seen.has(m.id)) m.visibleAt = now;
      }
      await sleep(POLL_MS);
    }
  })();

  const total = totalTicks(rate, durationMs);
  let generated = 0;
  const started = performance.now();
  let nextMarkerAt = started;
  try {
    while (generated < total) {
      const elapsed = performance.now() - started;
      if (performance.now() >= nextMarkerAt) {
        sendMarker();
        nextMarkerAt += options.markerEveryMs;
      }
      const due = ticksDue(rate, elapsed, total);
      while (generated < due && inFlight.size < MAX_PENDING) {
        track(producer.send(nextTick(Date.now())));
        generated += 1;
      }
      if (inFlight.size >= MAX_PENDING) await inFlight.atMost(MAX_PENDING / 2);
      else {
        const untilTick = msUntilDue(rate, generated, performance.now() - started);
        const untilMarker = nextMarkerAt - performance.now();
        await sleep(Math.max(1, Math.min(untilTick, untilMarker)));
      }
    }
    await producer.flush();
    await inFlight.atMost(0);
  } finally {
    producing = false;
    await producer.close();
  }
  const elapsedMs = performance.now() - started;
  await poller;
  if (failure !== undefined) throw asError(failure);

  const latencies = markers.flatMap((m) =>
    m.visibleAt === undefined ? [] : [m.visibleAt - m.sentAt],
  );
  options.logger.debug({ markers: markers.length, visible: latencies.length }, 'latency measured');
  return {
    targetRate: rate,
    achievedRate: (generated * 1000) / elapsedMs,
    ticks: generated,
    markers: markers.length,
    visible: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length === 0 ? Number.NaN : Math.max(...latencies),
  };
}
