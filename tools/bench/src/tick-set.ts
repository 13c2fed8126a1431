import { createProfile, type LoadProfile } from '@tickertape/producer';
import { seriesKey, type Tick } from '@tickertape/tick';

export interface SeriesLoad {
  series: number;
  perSecond: number;
}

export interface TickSetSpec {
  stocks: SeriesLoad;
  traffic: SeriesLoad;
  /** Event time of the first round, ms. */
  startMs: number;
  durationMs: number;
  seed: number;
}

/** One profile's share of the tick set: every series once per interval, staggered inside it. */
interface Stream {
  profile: LoadProfile;
  intervalMs: number;
  rounds: number;
  round: number;
}

function stream(name: 'stocks' | 'traffic', load: SeriesLoad, spec: TickSetSpec): Stream {
  const intervalMs = 1000 / load.perSecond;
  return {
    profile: profileOf(name, load, spec.seed),
    intervalMs,
    rounds: Math.floor(spec.durationMs / intervalMs),
    round: 0,
  };
}

/** Each profile draws from its own seed, so resizing one leaves the other's values as they were. */
function profileOf(name: 'stocks' | 'traffic', load: SeriesLoad, seed: number): LoadProfile {
  return createProfile(name, { series: load.series, seed: seed + (name === 'stocks' ? 0 : 1) });
}

const roundStart = (s: Stream, startMs: number) => startMs + s.round * s.intervalMs;

/**
 * The benchmark's fixed tick set: the stock and traffic profiles, every series once per
 * interval over `durationMs` of event time, in event-time order (rounds of both profiles merged,
 * series staggered across the interval), as a live feed would deliver them. Deterministic: the
 * same spec gives the same ticks, values and order.
 */
export function* tickSet(spec: TickSetSpec): Generator<Tick> {
  const streams = [stream('stocks', spec.stocks, spec), stream('traffic', spec.traffic, spec)];
  for (;;) {
    let next: Stream | undefined;
    for (const s of streams) {
      if (s.round >= s.rounds) continue;
      if (next === undefined || roundStart(s, spec.startMs) < roundStart(next, spec.startMs)) {
        next = s;
      }
    }
    if (next === undefined) return;
    const base = roundStart(next, spec.startMs);
    const count = next.profile.series.length;
    for (let i = 0; i < count; i++) {
      yield next.profile.next(Math.floor(base + (i * next.intervalMs) / count));
    }
    next.round += 1;
  }
}

export interface TickSetShape {
  total: number;
  stockSeries: string[];
  trafficSeries: string[];
  /** Event-time range the ticks fall in: [startMs, endMs). */
  startMs: number;
  endMs: number;
  /** Numeric field names per profile, for the preallocated shells. */
  stockFields: string[];
  trafficFields: string[];
}

/** The numeric fields each profile's ticks carry (packages/producer/src/profiles). */
export const PROFILE_FIELDS = {
  stocks: ['price', 'volume'],
  traffic: ['speed', 'travel_time'],
} as const;

/** What `tickSet(spec)` will yield, without generating it. */
export function tickSetShape(spec: TickSetSpec): TickSetShape {
  const keys = (name: 'stocks' | 'traffic', load: SeriesLoad) =>
    profileOf(name, load, spec.seed).series.map((s) => seriesKey(s.metric, s.tags));
  const rounds = (load: SeriesLoad) => Math.floor(spec.durationMs / (1000 / load.perSecond));
  return {
    total: rounds(spec.stocks) * spec.stocks.series + rounds(spec.traffic) * spec.traffic.series,
    stockSeries: keys('stocks', spec.stocks),
    trafficSeries: keys('traffic', spec.traffic),
    startMs: spec.startMs,
    endMs: spec.startMs + spec.durationMs,
    stockFields: [...PROFILE_FIELDS.stocks],
    trafficFields: [...PROFILE_FIELDS.traffic],
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Where the tick set sits in event time: ending at least `marginMs` before `nowMs` (the workers'
 * lateness bound accepts it, and every minute is over), and always across an hour boundary with
 * at least 5 minutes on each side, so the 10-minute window of the read side spans two hour
 * buckets on every run (its worst case) instead of depending on the time of day.
 */
export function tickSetRange(
  nowMs: number,
  durationMs: number,
  marginMs = 2 * MINUTE,
): { startMs: number; endMs: number } {
  const latest = Math.floor((nowMs - marginMs) / MINUTE) * MINUTE;
  const boundary = Math.floor((latest - 5 * MINUTE) / HOUR) * HOUR;
  // Half the span after the boundary, at most 30 minutes: the span's last hour boundary is then
  // this one (the read side looks for the last), and longer spans reach further back.
  const after = Math.min(
    30 * MINUTE,
    Math.max(5 * MINUTE, Math.floor(durationMs / 2 / MINUTE) * MINUTE),
  );
  const endMs = Math.min(latest, boundary + after);
  return { startMs: endMs - durationMs, endMs };
}
