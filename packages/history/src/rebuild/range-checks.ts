import { LEVEL_SPECS, LEVELS, ceilTo, floorTo, type Level } from '@tickertape/buckets';
import { isoTime } from '../words.js';
import { RebuildError, RebuildErrorCode } from './rebuild-error.js';

/**
 * The checks that decide whether a rebuild may run, pure and table-tested: the range on slot
 * boundaries, final for the level and its source, and still held by the topic.
 */
export type RebuildSource = 'topic' | Level;

/** The default source: the level below, or the topic for the minute level. */
export function defaultSource(level: Level): RebuildSource {
  const below = LEVELS[LEVELS.indexOf(level) - 1];
  return below ?? 'topic';
}

/** A level is rolled up only from the level right below it; any level can come from the topic. */
export function checkSource(level: Level, source: RebuildSource): void {
  if (source === 'topic' || source === LEVELS[LEVELS.indexOf(level) - 1]) return;
  const below = LEVELS[LEVELS.indexOf(level) - 1];
  throw new RebuildError(
    RebuildErrorCode.BadSource,
    `${level} buckets cannot be rebuilt from ${source} buckets: use --source ${below === undefined ? 'topic' : `${below} or --source topic`}`,
  );
}

function alignedOrRefused(level: Level, ms: number, option: string): void {
  const { slotMs, article } = LEVEL_SPECS[level];
  if (ms % slotMs === 0) return;
  throw new RebuildError(
    RebuildErrorCode.Misaligned,
    `${option} ${isoTime(ms)} is not on ${article} ${level} boundary: the nearest are ${isoTime(floorTo(ms, slotMs))} and ${isoTime(ceilTo(ms, slotMs))}`,
  );
}

/** `[fromMs, toMs)` must be whole slots of the level, at least one. */
export function checkAligned(level: Level, fromMs: number, toMs: number): void {
  alignedOrRefused(level, fromMs, '--from');
  alignedOrRefused(level, toMs, '--to');
  if (toMs <= fromMs)
    throw new RebuildError(
      RebuildErrorCode.Misaligned,
      `--to ${isoTime(toMs)} is not after --from ${isoTime(fromMs)}: the range holds no ${level} slot`,
    );
}

/** What an operator who meets "no watermark" needs to know: who sets one, and when. */
export const WATERMARK_HINT =
  "The scheduler sets each level's watermark (its finalize job, every FINALIZE_EVERY_MS) once the level's consumer group has read past a slot and the lateness allowance has passed: run the scheduler against this database (docs/scheduling.md), or read its log if it runs";

/**
 * Every slot of the range must be final for the rebuilt level — no live worker writes a final
 * slot, so the swap cannot lose a live write — and, for a level source, for the source level too,
 * so the source is complete. Slots are aligned, so that is: `toMs` at or before each watermark.
 */
export function checkFinal(
  level: Level,
  source: RebuildSource,
  toMs: number,
  watermarks: Readonly<Partial<Record<Level, number>>>,
): void {
  for (const which of source === 'topic' ? [level] : [level, source]) {
    const mark = watermarks[which];
    const role = which === level ? 'rebuilt' : 'source';
    if (mark === undefined)
      throw new RebuildError(
        RebuildErrorCode.NotFinal,
        `no ${which} slot is final yet (the ${role} level has no watermark): only final slots can be rebuilt. ${WATERMARK_HINT}`,
      );
    if (toMs > mark)
      throw new RebuildError(
        RebuildErrorCode.NotFinal,
        `--to ${isoTime(toMs)} is past the ${which} watermark (finalBefore ${isoTime(mark)}): only final slots can be rebuilt, end the range at ${isoTime(mark)} or earlier`,
      );
  }
}

/** One Kafka partition of the topic: its first retained offset and what a time lookup found. */
export interface RetainedPartition {
  partition: number;
  /** First offset still in the log. */
  low: bigint;
  /** First offset whose record time is at or after `fromMs - maxFutureMs` (the end if none). */
  atOrAfter: bigint;
}

/**
 * A tick of the range can ride on a record as early as `fromMs - maxFutureMs` (later ticks are
 * dead-lettered as out of range). The records' times rise with the offset (the broker's append
 * time), so a partition still holds all of them when it was never truncated (low 0) or its first
 * retained record is earlier than that: the time lookup lands after `low`.
 */
export function checkTopicHolds(
  topic: string,
  fromMs: number,
  maxFutureMs: number,
  partitions: readonly RetainedPartition[],
): void {
  const lost = partitions.filter((p) => p.low > 0n && p.atOrAfter <= p.low);
  if (lost.length === 0) return;
  throw new RebuildError(
    RebuildErrorCode.TopicTruncated,
    `${topic} no longer holds every record that may carry a tick from ${isoTime(fromMs)}: ` +
      `partition${lost.length === 1 ? '' : 's'} ${lost.map((p) => `${p.partition} (first offset ${p.low})`).join(', ')} ` +
      `start${lost.length === 1 ? 's' : ''} at or after ${isoTime(fromMs - maxFutureMs)} (--from minus --max-future-ms); ` +
      `rebuild from a level (--source) or a later --from`,
  );
}
