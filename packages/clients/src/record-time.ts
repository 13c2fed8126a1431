/**
 * For each partition, the first offset whose record is timestamped at or after `t` (the end of
 * the partition when none is): what Kafka's ListOffsets answers for a timestamp.
 */
export type OffsetsAtTime = (t: number) => Promise<ReadonlyMap<number, bigint>>;

export interface RecordTimeOptions {
  /** The clock the search starts from; the answer is never later than this. */
  now: number;
  /** How close the answer must be: it is at most this much earlier than the true timestamp. */
  resolutionMs: number;
}

/**
 * The timestamps of one record per partition (the record at `offsets.get(p)`), found through
 * ListOffsets alone: no consumer, no group, nothing fetched. It holds on a topic whose
 * timestamps never decrease within a partition — broker append times (LogAppendTime), as
 * `tickertape topics create` sets — where the record at offset c is timestamped at or after t
 * exactly when the first offset at or after t is ≤ c. The search steps back from `now` in
 * doubling steps until that holds, then halves the bracket down to `resolutionMs`; every probe is
 * one ListOffsets for all partitions, shared by the partitions still searching. Each answer is a
 * lower bound within `resolutionMs` of the record's timestamp (clamped to `now`, so a broker
 * clock ahead of ours reads as age 0).
 */
export async function recordTimes(
  offsetsAt: OffsetsAtTime,
  offsets: ReadonlyMap<number, bigint>,
  options: RecordTimeOptions,
): Promise<Map<number, number>> {
  const { now, resolutionMs } = options;
  const step = Math.max(1, Math.floor(resolutionMs));
  const probes = new Map<number, Promise<ReadonlyMap<number, bigint>>>();
  const probe = (t: number) => {
    let answer = probes.get(t);
    if (answer === undefined) {
      answer = offsetsAt(t);
      probes.set(t, answer);
    }
    return answer;
  };
  // The record at `offset` is timestamped at or after t.
  const atOrAfter = async (partition: number, offset: bigint, t: number) =>
    ((await probe(t)).get(partition) ?? 0n) <= offset;

  const searches = [...offsets].map(async ([partition, offset]): Promise<[number, number]> => {
    if (await atOrAfter(partition, offset, now)) return [partition, now];
    // Invariant: the record is before `late` and, once found, at or after `early`.
    let late = now;
    let early = now;
    for (let back = step; ; back *= 2) {
      // Timestamps below 0 are ListOffsets' special values (latest, earliest): stop at 0, where
      // the answer is the partition's first offset, which is ≤ any offset it holds.
      early = Math.max(0, now - back);
      if (early === 0 || (await atOrAfter(partition, offset, early))) break;
      late = early;
    }
    while (late - early > step) {
      const middle = early + Math.floor((late - early) / 2);
      if (await atOrAfter(partition, offset, middle)) early = middle;
      else late = middle;
    }
    return [partition, early];
  });
  return new Map(await Promise.all(searches));
}
