import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { newRunId, shadowPlan, type RollupStore } from '@tickertape/store';
import type { Difference } from '@tickertape/verify';
import { formatDuration, plural } from '../words.js';
import { foldIntoShadows, type RebuildIo, type SourceRead } from './fold.js';
import {
  planPartitions,
  sourceLabel,
  type PlannedPartition,
  type RebuildOptions,
  type RebuildPlan,
  type Sources,
} from './plan.js';
import { checkAligned, checkFinal, checkSource } from './range-checks.js';
import { RebuildError, RebuildErrorCode } from './rebuild-error.js';
import { checkShadows, type AgainstLive } from './shadow-check.js';

export interface SwappedPartition {
  live: string;
  whole: boolean;
  method: 'rename' | 'documents';
  written: number;
  replaced: number;
  deleted: number;
}

export interface RebuildReport {
  plan: RebuildPlan;
  runId: string;
  /** A run of the same rebuild was unfinished and has been carried on. */
  resumed: boolean;
  read: SourceRead;
  /** Buckets written into the shadows. */
  written: number;
  differences: Difference[];
  /** What the swap changed against the live buckets (absent when a swap was resumed). */
  live?: AgainstLive;
  swapped: SwappedPartition[];
  /** How long the fold into the shadows, their check and the swaps took. */
  phases: { foldMs: number; checkMs: number; swapMs: number };
  elapsedMs: number;
}

/** A run counts as alive (a second one is refused) while it reported within this long. */
const ALIVE_MS = 30_000;
const HEARTBEAT_MS = 5_000;

/** Refuses, before anything is read, a range that is not whole slots or a source below the level. */
export function checkRebuildRange(options: RebuildOptions): void {
  checkSource(options.level, options.source);
  checkAligned(options.level, options.fromMs, options.toMs);
}

/**
 * Checks, plans, folds the source into shadows, compares, swaps (the CLI's REBUILD_HELP says what
 * users see of it). With `dryRun` it stops after the plan and writes nothing. `openTopic` is
 * called only for the topic as the source.
 */
export async function rebuild(
  store: RollupStore,
  options: RebuildOptions,
  openTopic: () => Promise<Sources>,
  logger: Logger,
  io: RebuildIo,
): Promise<RebuildPlan | RebuildReport> {
  const started = io.now();
  checkRebuildRange(options);
  checkFinal(
    options.level,
    options.source,
    options.toMs,
    (await store.readWatermarks()).finalBefore,
  );
  const sources: Sources = options.source === 'topic' ? await openTopic() : {};
  const describe = (partitions: PlannedPartition[]): RebuildPlan => ({
    level: options.level,
    source: options.source,
    ...(options.source === 'topic' ? { topic: options.topic } : {}),
    fromMs: options.fromMs,
    toMs: options.toMs,
    partitions,
    ...(sources.spans === undefined
      ? {}
      : {
          topicPartitions: sources.spans.map((p) => ({
            partition: p.partition,
            low: String(p.low),
            high: String(p.high),
          })),
        }),
  });
  const draft = shadowPlan(options.level, options.fromMs, options.toMs, newRunId(started));
  const plan = describe(await planPartitions(store, options, draft));
  if (options.dryRun) return plan;

  const { run, resumed } = await store.startRun(
    {
      id: newRunId(started),
      kind: 'rebuild',
      level: options.level,
      fromMs: options.fromMs,
      toMs: options.toMs,
      source: sourceLabel(options),
      partitions: draft.map((part) => part.live),
    },
    io.now(),
  );
  if (resumed && started - run.updatedAtMs < ALIVE_MS)
    throw new RebuildError(
      RebuildErrorCode.Running,
      `run ${run.id} of this rebuild reported ${formatDuration(started - run.updatedAtMs)} ago: wait until it ends, or ${formatDuration(ALIVE_MS)} after it stopped, then run the command again to carry it on`,
    );
  const parts = shadowPlan(options.level, options.fromMs, options.toMs, run.id);
  let beat = io.now();
  const heartbeat = async () => {
    if (io.now() - beat < HEARTBEAT_MS) return;
    beat = io.now();
    await store.updateRun(run.id, beat);
  };
  let phaseStart = io.now();
  const report: RebuildReport = {
    phases: { foldMs: 0, checkMs: 0, swapMs: 0 },
    plan,
    runId: run.id,
    resumed,
    read: { kind: 'none' },
    written: 0,
    differences: [],
    swapped: [],
    elapsedMs: 0,
  };
  if (run.state !== 'swapping') {
    try {
      const { want, ...folded } = await foldIntoShadows(
        store,
        options,
        parts,
        sources,
        plan.partitions,
        io,
        heartbeat,
      );
      Object.assign(report, folded);
      report.phases.foldMs = io.now() - phaseStart;
      phaseStart = io.now();
      const checked = await checkShadows(store, options.level, parts, want);
      for (const difference of checked.differences) report.differences.push(difference);
      report.live = checked.live;
      report.phases.checkMs = io.now() - phaseStart;
      if (
        report.differences.length === 0 &&
        checked.live.shadowTicks === 0 &&
        checked.live.liveTicks > 0
      )
        throw new RebuildError(
          RebuildErrorCode.EmptySource,
          `the ${sourceLabel(options)} holds no tick of the range while the live ${options.level} buckets hold ${checked.live.liveTicks}: nothing was swapped (wrong --topic or --source?)`,
        );
    } catch (err) {
      // Stopped before any swap: the live data is as it was, and the run is over (a rerun
      // starts afresh; --cleanup drops its shadows).
      await store.updateRun(run.id, io.now(), { state: 'failed', detail: describeError(err) });
      throw err;
    }
    if (report.differences.length > 0) {
      await store.updateRun(run.id, io.now(), {
        state: 'failed',
        detail: `${plural(report.differences.length, 'difference')} between the shadows and their source`,
      });
      report.elapsedMs = io.now() - started;
      return report;
    }
    await store.updateRun(run.id, io.now(), { state: 'swapping' });
  }
  phaseStart = io.now();
  for (const part of parts) {
    const swap = await store.swapShadow(part);
    report.swapped.push({
      live: part.live,
      whole: part.whole,
      method: swap.method,
      written: swap.written,
      replaced: swap.saved,
      deleted: swap.deleted,
    });
    logger.info({ run: run.id, ...swap }, 'partition swapped');
  }
  if (report.read.kind === 'none')
    report.written = report.swapped.reduce((sum, s) => sum + s.written, 0);
  report.phases.swapMs = io.now() - phaseStart;
  await store.updateRun(run.id, io.now(), { state: 'done' });
  report.elapsedMs = io.now() - started;
  return report;
}
