import { slotStart, subSlot, bucketId, type Level } from '@tickertape/buckets';
import { seriesKey, type Tick } from '@tickertape/tick';

/**
 * A known tick set: `series` traffic sensors, one reading every `stepMs` per sensor, over
 * `minutes` minutes ending `endAgoMs` before `now`. Integer speeds keep sums exact.
 */
export function trafficTicks(
  now: number,
  options: { series: number; minutes: number; stepMs: number; endAgoMs?: number },
): Tick[] {
  const end = now - (options.endAgoMs ?? 60_000);
  const start = end - options.minutes * 60_000;
  const ticks: Tick[] = [];
  for (let t = start; t < end; t += options.stepMs) {
    for (let s = 0; s < options.series; s++) {
      ticks.push({
        metric: 'traffic',
        tags: { sensor: `S${s}` },
        ts: t + s, // distinct instants per sensor, so first/last need no tie-break
        fields: { speed: 40 + ((t / options.stepMs + s * 7) % 50), travel: 100 + s },
        strings: { weather: s % 2 === 0 ? 'clear' : 'rain' },
        source: null,
      });
    }
  }
  return ticks;
}

export interface ExpectedBucket {
  n: number;
  speed: { n: number; sum: number; min: number; max: number; first: number; last: number };
  /** Per-second sum of the values (minute level). */
  seconds?: Record<string, number>;
}

/**
 * The buckets of a level, folded here tick by tick, independently of the worker's code path:
 * plain loops over the ticks in event-time order.
 */
export function expectedBuckets(level: Level, ticks: readonly Tick[]): Map<string, ExpectedBucket> {
  const out = new Map<string, ExpectedBucket>();
  const sorted = [...ticks].sort((a, b) => a.ts - b.ts);
  for (const tick of sorted) {
    const id = bucketId(level, seriesKey(tick.metric, tick.tags), slotStart(level, tick.ts));
    const v = tick.fields.speed!;
    const b = out.get(id) ?? {
      n: 0,
      speed: { n: 0, sum: 0, min: v, max: v, first: v, last: v },
      seconds: level === 'minute' ? {} : undefined,
    };
    b.n += 1;
    b.speed.n += 1;
    b.speed.sum += v;
    b.speed.min = Math.min(b.speed.min, v);
    b.speed.max = Math.max(b.speed.max, v);
    b.speed.last = v;
    if (b.seconds) {
      const second = String(subSlot(level, tick.ts));
      b.seconds[second] = (b.seconds[second] ?? 0) + v;
    }
    out.set(id, b);
  }
  return out;
}
