import { foldInputOf as foldInputFrom, type FoldInput } from '@tickertape/buckets';
import { seriesKey, type Tick } from '@tickertape/tick';

/**
 * A backfill has no Kafka position, so it makes one: the input file is a partition of its own,
 * numbered from the sha256 of its bytes, and each line's number is its offset. The exactly-once
 * guard (docs/exactly-once.md) then works unchanged: a bucket remembers the highest line of this
 * file it has absorbed, lines are applied in increasing order, so a second run of the same file —
 * or a rerun after a kill — adds nothing twice, and a different file never shares the mark.
 *
 * Kafka partition numbers are small (a topic has at most thousands), so numbers from one million
 * up cannot collide with them; 40 bits of the digest keep two different files apart (a clash is
 * about one in a trillion per pair) and stay a safe integer, as offsets and `ap.<p>` keys need.
 */
export const SOURCE_PARTITION_BASE = 1_000_000;
const DIGEST_HEX_DIGITS = 10;

/** The synthetic partition of an input whose sha256 is `sha256Hex`. */
export function sourcePartition(sha256Hex: string): number {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) throw new RangeError(`not a sha256 digest: ${sha256Hex}`);
  return SOURCE_PARTITION_BASE + Number.parseInt(sha256Hex.slice(0, DIGEST_HEX_DIGITS), 16);
}

/** Whether `partition` is a backfill source rather than a Kafka partition. */
export function isBackfillSource(partition: number): boolean {
  return partition >= SOURCE_PARTITION_BASE;
}

/**
 * The id of a new backfill run of this input at `level`, as `rebuilds` records it and shadow
 * collections are named (letters, digits and `-`, at most 48): the input's digest, so a person
 * can tell which file made a shadow, and the start time, so a later run never reuses a finished
 * run's shadows. A rerun after a kill finds its unfinished run by the digest instead (startRun).
 */
export function backfillRunId(sha256Hex: string, level: string, nowMs: number): string {
  const time = new Date(nowMs).toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `backfill-${sha256Hex.slice(0, 12)}-${level}-${time}`;
}

/** A line's tick as the workers' fold takes it, at the file's partition and the line's offset. */
export function foldInputOf(tick: Tick, source: number, line: number): FoldInput {
  return foldInputFrom(tick, seriesKey(tick.metric, tick.tags), source, line);
}
