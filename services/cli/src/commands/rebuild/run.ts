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
import { isoTime } from '../../format/time.js';
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
import { formatTable } from '../../table.js';

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

function range(plan: RebuildPlan): string {
  return `${plan.level} buckets from ${isoTime(plan.fromMs)} to ${isoTime(plan.toMs)}`;
}

function source(plan: RebuildPlan): string {
  return plan.source === 'topic' ? `the topic ${plan.topic}` : `the ${plan.source} buckets`;
}

export function formatRebuildPlan(plan: RebuildPlan): string {
  const lines = [
    `rebuild plan (dry run, nothing written): ${range(plan)} from ${source(plan)}\n\n`,
    formatTable(
      ['partition', 'from', 'to', 'whole', 'live buckets', 'source buckets'],
      plan.partitions.map((p) => [
        p.live,
        isoTime(p.fromMs),
        isoTime(p.toMs),
        p.whole ? 'yes' : 'no',
        p.liveBuckets,
        p.sourceBuckets ?? null,
      ]),
    ),
  ];
  if (plan.topicPartitions !== undefined) {
    const records = plan.topicPartitions.reduce(
      (sum, p) => sum + Number(p.high) - Number(p.low),
      0,
    );
    lines.push(
      `\ntopic ${plan.topic}: ${plan.topicPartitions.map((p) => `p${p.partition} ${p.low}..${p.high}`).join(', ')} (${plural(records, 'record')} to read)\n`,
    );
  }
  return lines.join('');
}

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function formatRebuild(report: RebuildReport, limit: number): string {
  const { plan, read } = report;
  const lines = [
    `rebuild ${report.runId}${report.resumed ? ' (resumed)' : ''}: ${range(plan)} from ${source(plan)}\n`,
  ];
  if (read.kind === 'topic')
    lines.push(
      `read: ${plural(read.records, 'record')}, ${plural(read.ticks, 'tick')} of the range; left out as the workers leave them out: ${read.rejected} not ticks, ${read.dropped} dead-lettered for their time\n`,
    );
  else if (read.kind === 'level')
    lines.push(
      `read: ${plural(read.buckets, `${plan.source} bucket`)} holding ${plural(read.ticks, 'tick')}\n`,
    );
  else lines.push('read: nothing (the shadows had been checked; the swap was carried on)\n');
  if (report.differences.length > 0) {
    lines.push(
      '\n',
      formatTable(
        ['kind', 'id', 'field', 'expected', 'shadow'],
        report.differences
          .slice(0, limit)
          .map((d) => [d.kind, d.id, d.path ?? '', show(d.expected), show(d.actual)]),
      ),
    );
    if (report.differences.length > limit)
      lines.push(`… and ${report.differences.length - limit} more (--limit)\n`);
    lines.push(
      `\n${plural(report.differences.length, 'difference')} between the shadows and their source: nothing swapped (the shadows stay until --cleanup)\n`,
    );
    return lines.join('');
  }
  if (report.live !== undefined) {
    const l = report.live;
    lines.push(
      `against the live buckets: ${l.same} same, ${l.changed} changed, ${l.restored} restored, ${l.removed} removed; ticks ${l.liveTicks} live → ${l.shadowTicks} rebuilt\n`,
    );
  }
  lines.push(
    '\n',
    formatTable(
      ['partition', 'swap', 'written', 'replaced', 'deleted'],
      report.swapped.map((s) => [s.live, s.method, s.written, s.replaced, s.deleted]),
    ),
  );
  const rate = report.elapsedMs > 0 ? Math.round((report.written * 1000) / report.elapsedMs) : 0;
  lines.push(
    `\n${plural(report.swapped.length, 'partition')}, ${plural(report.written, 'bucket')} written, ${report.swapped.reduce((sum, s) => sum + s.replaced, 0)} replaced, 0 differences, ${formatDuration(report.elapsedMs)} (${rate} buckets/s; fold ${formatDuration(report.phases.foldMs)}, check ${formatDuration(report.phases.checkMs)}, swap ${formatDuration(report.phases.swapMs)})\n`,
    `the replaced buckets are kept until \`tickertape rebuild --cleanup\`\n`,
  );
  return lines.join('');
}

export function formatCleanup(dropped: readonly string[], dryRun: boolean): string {
  if (dropped.length === 0) return 'nothing to clean up\n';
  return `${dryRun ? 'would drop' : 'dropped'} ${plural(dropped.length, 'collection')}:\n${dropped.map((name) => `  ${name}\n`).join('')}`;
}
