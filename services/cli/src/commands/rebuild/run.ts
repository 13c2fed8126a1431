import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import {
  cleanupReplaced,
  newRunId,
  readWatermarks,
  shadowPlan,
  startRun,
  swapShadow,
  updateRun,
} from '@tickertape/store';
import type { Difference } from '@tickertape/verify';
import { openMongo } from '../../connect.js';
import { formatDuration } from '../../duration.js';
import type { CliEnv } from '../../env.js';
import { plural } from '../../plural.js';
import { foldIntoShadows, type RebuildIo, type SourceRead } from '../../rebuild/fold.js';
import {
  openTopic,
  planPartitions,
  sourceLabel,
  type PlannedPartition,
  type RebuildOptions,
  type RebuildPlan,
  type Sources,
} from '../../rebuild/plan.js';
import { checkAligned, checkFinal, checkSource } from '../../rebuild/range-checks.js';
import { RebuildError, RebuildErrorCode } from '../../rebuild/rebuild-error.js';
import { checkShadows, type AgainstLive } from '../../rebuild/shadow-check.js';

export type { PlannedPartition, RebuildIo, RebuildOptions, RebuildPlan };

export const REBUILD_HELP = `
Recomputes a level over a range of final slots beside the live data and swaps it in: the buckets
are folded into shadow collections (from the topic with the workers' own decode, time verdict and
guarded writer; from the level below by rolling its buckets up), compared with their source by
the checker's comparison, and only with no difference put in place of the live ones — a whole
partition renamed into place on MongoDB, bucket by bucket otherwise. The live buckets it replaces
are kept in replaced_<run>_<partition> collections until \`tickertape rebuild --cleanup\`.

Refused, with nothing written: --from/--to not on the level's slot boundaries; any slot of the
range not final (its watermark) for the level, or for a source level; a topic that no longer
holds every record that may carry a tick of the range; a source level partition that is gone. A
run killed half-way is resumed by running the same command again. --dry-run prints the plan.
Exit status: 0 when swapped, 1 when the shadow differs from its source (nothing swapped), 2 when
refused.
`;

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

/**
 * `tickertape rebuild`: checks, plans, folds the source into shadows, compares, swaps. With
 * `dryRun` it stops after the plan and writes nothing.
 */
export async function rebuildCommand(
  env: CliEnv,
  options: RebuildOptions,
  logger: Logger,
  io: RebuildIo,
): Promise<RebuildPlan | RebuildReport> {
  const started = io.now();
  checkSource(options.level, options.source);
  checkAligned(options.level, options.fromMs, options.toMs);
  const mongo = await openMongo(env, logger, 'tickertape-rebuild');
  try {
    const db = mongo.db(options.database);
    checkFinal(options.level, options.source, options.toMs, await readWatermarks(db));
    const sources: Sources =
      options.source === 'topic' ? await openTopic(env, options, logger) : {};
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
    const plan = describe(await planPartitions(db, options, draft));
    if (options.dryRun) return plan;

    const { run, resumed } = await startRun(
      db,
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
    if (resumed && started - run.updatedAt.getTime() < ALIVE_MS)
      throw new RebuildError(
        RebuildErrorCode.Running,
        `run ${run._id} of this rebuild reported ${formatDuration(started - run.updatedAt.getTime())} ago: wait until it ends, or ${formatDuration(ALIVE_MS)} after it stopped, then run the command again to carry it on`,
      );
    const parts = shadowPlan(options.level, options.fromMs, options.toMs, run._id);
    let beat = io.now();
    const heartbeat = async () => {
      if (io.now() - beat < HEARTBEAT_MS) return;
      beat = io.now();
      await updateRun(db, run._id, beat);
    };
    let phaseStart = io.now();
    const report: RebuildReport = {
      phases: { foldMs: 0, checkMs: 0, swapMs: 0 },
      plan,
      runId: run._id,
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
          db,
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
        const checked = await checkShadows(db, options.level, parts, want);
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
        await updateRun(db, run._id, io.now(), { state: 'failed', detail: describeError(err) });
        throw err;
      }
      if (report.differences.length > 0) {
        await updateRun(db, run._id, io.now(), {
          state: 'failed',
          detail: `${plural(report.differences.length, 'difference')} between the shadows and their source`,
        });
        report.elapsedMs = io.now() - started;
        return report;
      }
      await updateRun(db, run._id, io.now(), { state: 'swapping' });
    }
    phaseStart = io.now();
    for (const part of parts) {
      const swap = await swapShadow(db, part);
      report.swapped.push({
        live: part.live,
        whole: part.whole,
        method: swap.method,
        written: swap.written,
        replaced: swap.saved,
        deleted: swap.deleted,
      });
      logger.info({ run: run._id, ...swap }, 'partition swapped');
    }
    if (report.read.kind === 'none')
      report.written = report.swapped.reduce((sum, s) => sum + s.written, 0);
    report.phases.swapMs = io.now() - phaseStart;
    await updateRun(db, run._id, io.now(), { state: 'done' });
    report.elapsedMs = io.now() - started;
    return report;
  } finally {
    await mongo.close();
  }
}

/** `tickertape rebuild --cleanup`: drops the replaced collections and finished runs' shadows. */
export async function cleanupCommand(
  env: CliEnv,
  options: { database: string; dryRun: boolean },
  logger: Logger,
  now: () => number,
): Promise<string[]> {
  const mongo = await openMongo(env, logger, 'tickertape-rebuild');
  try {
    return await cleanupReplaced(mongo.db(options.database), {
      dryRun: options.dryRun,
      nowMs: now(),
    });
  } finally {
    await mongo.close();
  }
}
