import { foldInputOf, LEVELS, type FoldInput } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import { SeededRandom } from '@tickertape/producer';
import { seriesKey } from '@tickertape/tick';
import { perTickCollection, tickDocument } from '../designs.js';
import type { BenchDatabase } from '../run-resources.js';
import { ROUTE_METRIC, sensorTags, type RouteMix } from './route-mix.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Sensors written per flush: 2,000 hour buckets, one guarded upsert each. */
const SENSORS_PER_FLUSH = 2000;

export const READ_FIELD = 'speed';

export interface ReadData {
  /** Start of the hour whose windows are final (two hours before the current one). */
  finalHourMs: number;
  /** The final 10-minute windows asked for: the six of that hour. */
  finalWindows: { fromMs: number; toMs: number }[];
  ticks: number;
  /** Design C's documents: the ticks of the final hour and of the last 15 minutes. */
  perTickDocs: number;
  seconds: number;
}

/**
 * Hour buckets of every sensor from two hours ago to now, one speed reading a minute each, through
 * the workers' own writer (and the same ticks as design C's documents where its questions look) (the hour level is what a 10-minute window reads: an hour bucket's
 * minutes). The watermarks put the first of those hours behind finality, the rest open, as the
 * scheduler would with a short lateness.
 */
export async function seedReadData(
  db: BenchDatabase,
  mix: RouteMix,
  nowMs: number,
  logger: Logger,
): Promise<ReadData> {
  const started = Date.now();
  const currentHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const finalHourMs = currentHour - 2 * HOUR_MS;
  const writer = db.rollups.writer(LEVELS[1]);
  const random = new SeededRandom(1);
  // Design C's documents, only where its questions look: the final hour and the last 15 minutes.
  const perTick = await perTickCollection(db.designDb, true);
  const perTickWanted = (ts: number) =>
    (ts >= finalHourMs && ts < finalHourMs + HOUR_MS) || ts >= nowMs - 15 * MINUTE_MS;
  let ticks = 0;
  let perTickDocs = 0;
  for (let hour = finalHourMs; hour <= currentHour; hour += HOUR_MS) {
    const minutes = Math.min(60, Math.ceil((nowMs - hour) / MINUTE_MS));
    for (let first = 0; first < mix.sensors; first += SENSORS_PER_FLUSH) {
      const flush: FoldInput[] = [];
      for (
        let sensor = first;
        sensor < Math.min(mix.sensors, first + SENSORS_PER_FLUSH);
        sensor++
      ) {
        const tags = sensorTags(mix, sensor);
        const key = seriesKey(ROUTE_METRIC, tags);
        for (let minute = 0; minute < minutes; minute++)
          flush.push(
            foldInputOf(
              {
                metric: ROUTE_METRIC,
                tags,
                ts: hour + minute * MINUTE_MS + random.int(0, 59_999),
                fields: { [READ_FIELD]: random.int(20, 120) },
                strings: {},
              },
              key,
              0,
              ticks + flush.length,
            ),
          );
      }
      await writer.apply(flush);
      const docs = flush
        .filter((input) => perTickWanted(input.ts))
        .map((input) => tickDocument({ ...input, strings: {} }));
      if (docs.length > 0) await perTick.insertMany(docs, { ordered: false });
      perTickDocs += docs.length;
      ticks += flush.length;
    }
    logger.info({ hour: new Date(hour).toISOString(), ticks }, 'read data: hour written');
  }
  const mark = currentHour - HOUR_MS;
  await db.rollups.advanceWatermarks(
    { minute: mark, hour: mark, day: Math.floor(mark / 86_400_000) * 86_400_000 },
    nowMs,
  );
  return {
    finalHourMs,
    finalWindows: Array.from({ length: 6 }, (_, k) => ({
      fromMs: finalHourMs + k * 10 * MINUTE_MS,
      toMs: finalHourMs + (k + 1) * 10 * MINUTE_MS,
    })),
    ticks,
    perTickDocs,
    seconds: (Date.now() - started) / 1000,
  };
}
