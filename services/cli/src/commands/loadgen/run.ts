import type { StartProgress } from '@tickertape/clients';
import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import {
  createProfile,
  DEFAULT_SERIES,
  runLoad,
  TickProducer,
  type LoadSummary,
  type ProfileName,
} from '@tickertape/producer';
import { openTopicForPublishing } from '../../connect.js';
import { formatDuration } from '../../duration.js';
import type { CliEnv } from '../../env.js';
import { plural } from '../../plural.js';
import type { Progress } from '../../progress.js';
import { formatTable } from '../../table.js';

export interface LoadgenOptions {
  profile: ProfileName;
  rate: number;
  durationMs: number;
  /** Default per profile (DEFAULT_SERIES). */
  series?: number;
  topic: string;
  seed: number;
}

export interface LoadgenIo {
  /** Shows the run's progress in ticks generated (none when absent). */
  startProgress?: StartProgress;
  /** Stops the run early; what was sent is still flushed and summarised. */
  signal?: AbortSignal;
}

export interface LoadgenResult extends LoadSummary {
  topic: string;
  rate: number;
  seed: number;
}

export const LOADGEN_HELP = `
Profiles (both seeded: the same --seed gives the same series and values):
  stocks   metric stock.tick, tags symbol (ACME, GLBX, ...) and exchange, fields price (a random
           walk, in cents) and volume; 50 symbols by default, so 40 ticks a second each at 2000/s.
  traffic  metric traffic, tags sensor (900000, ...) and segment (I80_mile34, ...), fields speed
           (mph) and travel_time (s), string field conditions (clear, rain, fog, snow).
The series are visited round robin, so each gets one reading every series/rate seconds. Event
time is the wall clock when a tick is generated. Exactly rate x duration ticks are sent; if the
broker cannot keep up the run takes longer, and the summary's achieved rate says so.
`;

/**
 * Generates a profile's ticks at a target rate and publishes them, reporting its progress, and
 * returns the run's summary.
 */
export async function loadgen(
  env: CliEnv,
  options: LoadgenOptions,
  logger: Logger,
  io: LoadgenIo = {},
): Promise<LoadgenResult> {
  const { kafka, codec } = await openTopicForPublishing(
    env,
    logger,
    'tickertape-loadgen',
    options.topic,
  );
  const profile = createProfile(options.profile, {
    series: options.series ?? DEFAULT_SERIES[options.profile],
    seed: options.seed,
  });
  const producer = await TickProducer.connect(kafka, codec, {
    topic: options.topic,
    source: `tickertape-loadgen/${options.profile}`,
  });
  // Started at the first report, which carries the run's total.
  let progress: Progress | undefined;
  let summary: LoadSummary;
  try {
    summary = await runLoad(producer, profile, {
      ratePerSec: options.rate,
      durationMs: options.durationMs,
      signal: io.signal,
      onProgress: ({ generated, total }) => {
        progress ??= io.startProgress?.({
          total,
          unit: 'ticks',
          label: `loadgen ${options.profile}`,
        });
        progress?.update(generated);
      },
    });
  } finally {
    progress?.stop();
    await producer.close();
  }
  return { ...summary, topic: options.topic, rate: options.rate, seed: options.seed };
}

/** `--format json`: the summary, its per-series counts an object (a Map does not serialise). */
export function loadgenJson(result: LoadgenResult): Record<string, unknown> {
  const { firstError, perSeries, ...rest } = result;
  return {
    ...rest,
    perSeries: Object.fromEntries(perSeries),
    ...(firstError === undefined ? {} : { firstError: describeError(firstError) }),
  };
}

export function formatLoadgen(result: LoadgenResult): string {
  const achieved = Math.round(result.achievedRate);
  const lines = [
    `loadgen ${result.profile}: ${plural(result.acknowledged, 'tick')} sent to ${result.topic} in ` +
      `${formatDuration(result.elapsedMs)} (${achieved}/s achieved, ${result.rate}/s target), ` +
      `${result.perSeries.size} series, seed ${result.seed}`,
  ];
  if (result.aborted) lines.push(`stopped early: ${result.generated} of ${result.total} generated`);
  if (result.failed > 0) {
    lines.push(`${plural(result.failed, 'tick')} not acknowledged by the broker`);
  }
  return `${lines.join('\n')}\n${formatTable(
    ['series', 'ticks'],
    [...result.perSeries].map(([key, count]) => [key, count]),
  )}`;
}
