import { seriesKey } from '@tickertape/tick';
import { setTimeout as delay } from 'node:timers/promises';
import { InFlight } from '../in-flight.js';
import type { LoadProfile, ProfileName } from '../profiles/profile.js';
import type { TickSink } from '../tick-producer.js';
import { achievedRate, msUntilDue, ticksDue, totalTicks } from './pacing.js';

export interface RunLoadOptions {
  /** Target ticks per second, over all series. */
  ratePerSec: number;
  durationMs: number;
  /**
   * Most ticks handed to the sink and not yet settled. Above it the runner waits until half
   * have settled, so a broker slower than the target rate slows the run instead of filling
   * memory (default 5000).
   */
  maxPending?: number;
  /** Stops generating; what was generated is still flushed and counted. */
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  /** Event times and pacing; `Date.now` unless a test passes its own clock… */
  clock?: () => number;
  /** …and a sleep that advances it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface LoadProgress {
  generated: number;
  total: number;
  acknowledged: number;
  failed: number;
}

export interface LoadSummary {
  profile: ProfileName;
  /** Ticks the run was to send: rate × duration. */
  total: number;
  generated: number;
  acknowledged: number;
  failed: number;
  elapsedMs: number;
  /** Acknowledged ticks per second, from the first tick to the last acknowledgement. */
  achievedRate: number;
  /** Acknowledged ticks per series key, in the profile's series order. */
  perSeries: ReadonlyMap<string, number>;
  aborted: boolean;
  /** The first failure, when any tick failed. */
  firstError?: unknown;
}

export const DEFAULT_MAX_PENDING = 5000;

async function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch (err) {
    if (!(err instanceof Error && err.name === 'AbortError')) throw err;
  }
}

/**
 * Sends `rate × duration` ticks from `profile` at the target rate, each stamped with the wall
 * clock at its generation. Pacing follows the schedule in pacing.ts: behind schedule (a GC
 * pause, a slow broker) it catches up in a burst; the summary's achieved rate tells whether
 * the target was met.
 */
export async function runLoad(
  sink: TickSink,
  profile: LoadProfile,
  options: RunLoadOptions,
): Promise<LoadSummary> {
  const { ratePerSec: rate, durationMs, signal } = options;
  if (!(Number.isFinite(rate) && rate > 0))
    throw new RangeError(`rate must be positive, not ${rate}`);
  if (!(Number.isFinite(durationMs) && durationMs >= 0)) {
    throw new RangeError(`duration must be zero or more ms, not ${durationMs}`);
  }
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? sleepUnlessAborted;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const total = totalTicks(rate, durationMs);
  const perSeries = new Map(profile.series.map((s) => [seriesKey(s.metric, s.tags), 0]));

  let generated = 0;
  let acknowledged = 0;
  let failed = 0;
  let firstError: unknown;
  const inFlight = new InFlight();
  const progress = () => options.onProgress?.({ generated, total, acknowledged, failed });

  const start = clock();
  while (generated < total && signal?.aborted !== true) {
    const due = ticksDue(rate, clock() - start, total);
    while (generated < due && inFlight.size < maxPending) {
      const tick = profile.next(clock());
      const key = seriesKey(tick.metric, tick.tags);
      generated += 1;
      const sent = sink.send(tick).then(
        () => {
          acknowledged += 1;
          perSeries.set(key, (perSeries.get(key) ?? 0) + 1);
        },
        (err: unknown) => {
          failed += 1;
          firstError ??= err;
        },
      );
      inFlight.track(sent);
    }
    progress();
    if (inFlight.size >= maxPending) {
      await inFlight.atMost(Math.floor(maxPending / 2));
    } else if (generated < total) {
      await sleep(Math.max(1, msUntilDue(rate, generated, clock() - start)), signal);
    }
  }
  await sink.flush();
  await inFlight.atMost(0);
  const elapsedMs = clock() - start;
  progress();
  return {
    profile: profile.name,
    total,
    generated,
    acknowledged,
    failed,
    elapsedMs,
    achievedRate: achievedRate(acknowledged, elapsedMs),
    perSeries,
    aborted: generated < total,
    ...(failed > 0 ? { firstError } : {}),
  };
}
