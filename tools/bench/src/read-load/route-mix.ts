import { SeededRandom } from '@tickertape/producer';
import { seriesKey } from '@tickertape/tick';

/** The metric of the seed's sensors: `traffic`, field `speed`. */
export const ROUTE_METRIC = 'traffic';

/**
 * Seed 001's read load, shaped: sensors along routes of `sensorsPerRoute` neighbours, each user
 * asking for one route's 10-minute average, routes popular by a Zipf law (a few corridors carry
 * most commuters).
 */
export interface RouteMix {
  sensors: number;
  sensorsPerRoute: number;
  /** Zipf exponent of route popularity: rank k is asked ∝ 1/k^s. */
  zipfS: number;
}

export const SEED_001_MIX: RouteMix = { sensors: 16_000, sensorsPerRoute: 50, zipfS: 1.1 };

export const routeCount = (mix: RouteMix) => Math.ceil(mix.sensors / mix.sensorsPerRoute);

/** The route tag of a route index: r000 … r319. */
export const routeName = (route: number) => `r${String(route).padStart(3, '0')}`;

/** The sensor tag of a sensor index: s00000 … s15999; its route is index ÷ sensorsPerRoute. */
export const sensorName = (sensor: number) => `s${String(sensor).padStart(5, '0')}`;

/** A sensor's tags: its route and its own name (the series key is `traffic|route=…,sensor=…`). */
export function sensorTags(mix: RouteMix, sensor: number): Record<string, string> {
  return { route: routeName(Math.floor(sensor / mix.sensorsPerRoute)), sensor: sensorName(sensor) };
}

/** The series keys of a route's sensors, in sensor order. */
export function routeSensors(mix: RouteMix, route: number): string[] {
  const first = route * mix.sensorsPerRoute;
  const last = Math.min(mix.sensors, first + mix.sensorsPerRoute);
  return Array.from({ length: last - first }, (_, i) =>
    seriesKey(ROUTE_METRIC, sensorTags(mix, first + i)),
  );
}

/** Cumulative Zipf weights over `n` ranks, normalised to end at 1. */
export function zipfCdf(n: number, s: number): number[] {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1) ** s);
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
}

/** The rank a uniform `u` in [0, 1) falls on (binary search of the CDF). */
export function pickRank(cdf: readonly number[], u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (u < cdf[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A seeded stream of route indexes by popularity (rank k is route k). */
export function routePicker(mix: RouteMix, seed: number): () => number {
  const cdf = zipfCdf(routeCount(mix), mix.zipfS);
  const random = new SeededRandom(seed);
  return () => pickRank(cdf, random.next());
}

/**
 * The share of requests that ask what an earlier request asked within `withinMs` before it:
 * what a cache keeping answers that long could serve, at best. `asked` is in time order.
 */
export function repeatShare(
  asked: readonly { atMs: number; key: string }[],
  withinMs: number,
): number {
  if (asked.length === 0) return 0;
  const last = new Map<string, number>();
  let repeats = 0;
  for (const { atMs, key } of asked) {
    const before = last.get(key);
    if (before !== undefined && atMs - before <= withinMs) repeats += 1;
    last.set(key, atMs);
  }
  return repeats / asked.length;
}
