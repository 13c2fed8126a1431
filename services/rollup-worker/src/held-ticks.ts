import type { FoldInput } from '@tickertape/buckets';

/**
 * What one Kafka partition has consumed since its last commit and not written yet: the decoded
 * ticks, and the offsets they span (dead-lettered records included: their offsets are committed
 * with the next flush). A freshness budget lets the worker hold them across fetches so one
 * guarded update per bucket absorbs many ticks (docs/freshness.md).
 */
export interface HeldTicks {
  inputs: FoldInput[];
  /** First offset held: where the partition resumes when the held ticks are dropped. */
  firstOffset: string;
  /** Last offset held: the commit after the write is this plus one. */
  lastOffset: string;
  /** Records held (good and bad): FLUSH_MAX_TICKS bounds them. */
  records: number;
  /** Where the oldest held record's budget runs from (see heldSince). */
  heldSince: number;
  /** Estimated heap the held ticks take (see estimateHeldBytes). */
  bytes: number;
}

/** Why a partition's held ticks are written now. */
export type FlushCause = 'budget' | 'size' | 'memory' | 'batch' | 'drain';

// A decoded tick is the input object plus its fields and tags objects. Measured with
// `node --expose-gc` (heapUsed over 100,000 inputs), a tick of two numeric fields and two tags
// takes 306 B; these constants make it about 350 B, an estimate on the safe side. The series key and
// metric are shared strings from the decoder's cache.
const INPUT_OVERHEAD_B = 160;
const PER_FIELD_B = 32;
const PER_CHARACTER_B = 2;

/** An upper estimate of the heap one held tick takes, from its shape (no traversal of the heap). */
export function estimateHeldBytes(input: FoldInput): number {
  let bytes = INPUT_OVERHEAD_B;
  for (const name in input.fields) bytes += PER_FIELD_B + name.length * PER_CHARACTER_B;
  for (const name in input.strings)
    bytes += PER_FIELD_B + (name.length + input.strings[name]!.length) * PER_CHARACTER_B;
  for (const name in input.tags)
    bytes += PER_FIELD_B + (name.length + input.tags[name]!.length) * PER_CHARACTER_B;
  return bytes;
}

/**
 * Where a run of records' budget starts: when they were consumed, less the time they took to get
 * there from their Kafka timestamp (the broker's append time on a topic made by `tickertape topics
 * create`) — the fetch wait that readers see as staleness too — but by at most a second (a
 * quarter of a short budget). A worker that falls behind so meets a backlog of old records and
 * still holds them nearly a whole budget, so its writes grow fuller, not smaller, when the
 * database is slow; a broker clock ahead of the worker's never makes it hold longer.
 */
export function heldSince(consumedAt: number, producedAt: number, budgetMs: number): number {
  const slack = Math.min(1000, budgetMs / 4);
  if (!Number.isFinite(producedAt)) return consumedAt;
  return consumedAt - Math.min(slack, Math.max(0, consumedAt - producedAt));
}

/** One partition's held ticks; empty until a fetch adds records. */
export class PartitionHold {
  private held: HeldTicks | undefined;

  get records(): number {
    return this.held?.records ?? 0;
  }

  get bytes(): number {
    return this.held?.bytes ?? 0;
  }

  get isEmpty(): boolean {
    return this.held === undefined;
  }

  /** Adds a run of consecutive records (`inputs` are the good ones among them). */
  add(
    inputs: readonly FoldInput[],
    firstOffset: string,
    lastOffset: string,
    records: number,
    since: number,
  ): void {
    let bytes = 0;
    for (const input of inputs) bytes += estimateHeldBytes(input);
    const held = this.held;
    if (held === undefined) {
      this.held = {
        inputs: [...inputs],
        firstOffset,
        lastOffset,
        records,
        heldSince: since,
        bytes,
      };
      return;
    }
    for (const input of inputs) held.inputs.push(input);
    held.lastOffset = lastOffset;
    held.records += records;
    held.bytes += bytes;
  }

  /** Whether the oldest held record has waited out the budget. */
  isDue(now: number, budgetMs: number): boolean {
    return this.held !== undefined && now - this.held.heldSince >= budgetMs;
  }

  /** Hands over everything held and starts empty. */
  take(): HeldTicks | undefined {
    const held = this.held;
    this.held = undefined;
    return held;
  }
}

/**
 * How long before its budget runs out a partition's hold is written: as long as the partition's
 * last write took (its queue behind the other partitions' writes included), at most a quarter of
 * the budget. A budget is how stale a reader may find the level, so a hold must be *visible* within
 * it, not start its write then: an hour worker writing 10,000 buckets in 3 s showed its ticks 63 s
 * after they were produced with a 60 s budget. The cap bounds the feedback where the database is
 * the bottleneck: slow writes mean earlier, smaller and so more writes (at most 4/3 as many).
 */
export function writeLead(budgetMs: number, lastWriteMs: number): number {
  return Math.min(Math.floor(budgetMs / 4), Math.max(0, Math.round(lastWriteMs)));
}

/** The hold age at which a partition is written: its budget less its write lead (0 stays 0). */
export function dueAfter(budgetMs: number, lastWriteMs: number): number {
  return budgetMs === 0 ? 0 : budgetMs - writeLead(budgetMs, lastWriteMs);
}

export interface HoldLimits {
  /** FRESHNESS_BUDGET_MS less the partition's write lead (dueAfter): 0 writes every fetched batch. */
  budgetMs: number;
  /** FLUSH_MAX_TICKS: most records one flush holds. */
  flushMaxTicks: number;
}

/** How many of a fetched batch's next records fit before the hold reaches FLUSH_MAX_TICKS. */
export function room(hold: PartitionHold, limits: HoldLimits): number {
  return Math.max(1, limits.flushMaxTicks - hold.records);
}

/**
 * Whether a partition's hold is written now, and why: after each run of records taken in (size),
 * and once more when the fetched batch is through (batch, budget); the memory bound is
 * checked across partitions (overMemory).
 */
export function flushCause(
  hold: PartitionHold,
  now: number,
  limits: HoldLimits,
  endOfBatch: boolean,
): FlushCause | undefined {
  if (hold.isEmpty) return undefined;
  if (hold.records >= limits.flushMaxTicks) return 'size';
  if (!endOfBatch) return undefined;
  if (limits.budgetMs === 0) return 'batch';
  return hold.isDue(now, limits.budgetMs) ? 'budget' : undefined;
}

/**
 * The partitions to write, largest first, until what stays held fits in `maxBytes`: the memory
 * bound flushes early what weighs most rather than what happened to arrive last.
 */
export function overMemory(
  holds: ReadonlyMap<number, { bytes: number }>,
  maxBytes: number,
): number[] {
  let total = 0;
  for (const hold of holds.values()) total += hold.bytes;
  if (total <= maxBytes) return [];
  const largest = [...holds]
    .filter(([, hold]) => hold.bytes > 0)
    .sort((a, b) => b[1].bytes - a[1].bytes);
  const chosen: number[] = [];
  for (const [partition, hold] of largest) {
    if (total <= maxBytes) break;
    chosen.push(partition);
    total -= hold.bytes;
  }
  return chosen;
}
