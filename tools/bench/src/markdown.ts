import { beforeAfterSection } from './before-after-markdown.js';
import { previousRunSection } from './previous-run-markdown.js';
import { sketchSection } from './sketch-markdown.js';
import { cpuProfileSection } from './cpu-profile-markdown.js';
import { densitySection } from './density-markdown.js';
import { liveSection } from './live/live-markdown.js';
import { processCpuSection } from './process-cpu-markdown.js';
import { figures } from './report.js';
import type { BenchReport } from './bench-report.js';
import { int, iso, num, table } from './markdown-table.js';
import { READ_WARM_UP } from './reads.js';
import { designTable, levelTable, readTable } from './design-tables.js';

export interface MarkdownOptions {
  command: string;
  /** File name of the chart, relative to the Markdown file; omitted when there is none. */
  chart?: string;
  /** The report this one replaces, for a before/after of the same figures. */
  previous?: BenchReport;
}

/** The whole report as Markdown: what docs/benchmarks.md holds and what the command prints. */
export function renderMarkdown(report: BenchReport, options: MarkdownOptions): string {
  const derived = figures(report);
  const { settings, machine, load, latency, reads } = report;
  const { shape } = load;
  const b = report.designs.find((d) => d.key === 'B')!;
  const lines: string[] = [];
  lines.push(
    '# Benchmarks',
    '',
    `Run on ${iso(report.startedAt)} (${num((report.finishedAt - report.startedAt) / 1000, 0)} s), profile \`${settings.profile}\`, with:`,
    '',
    '```bash',
    options.command,
    '```',
    '',
    `**Machine:** ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB memory, ${machine.os}, Node ${machine.node}. ` +
      `**Database:** ${machine.database}. Kafka 3.9.1 (one KRaft node) and Apicurio Registry 3.0.9 from the local stack, on the same machine. ` +
      'The machine is shared and noisy: absolute figures drift between runs; the ratios below come from one run, side by side. A and B alternate for several rounds within it and the median round of each is reported (every round is listed in the notes).',
    '',
    `**Tick set:** ${int(shape.total)} ticks on one topic of ${load.partitions} partitions, seed ${settings.seed}: ` +
      `${shape.stockSeries.length} stock symbols at ${settings.stocks.perSecond} ticks/s each and ` +
      `${shape.trafficSeries.length} traffic sensors at ${settings.traffic.perSecond} ticks/s each, over ${num(settings.durationMs / 60_000, 0)} minutes of event time ` +
      `(${iso(shape.startMs)} – ${iso(shape.endMs)}). Produced before any consumer started, with the producer SDK, in ${num(load.seconds, 1)} s (${int(load.ticksPerSec)} ticks/s, ${num(load.bytes / load.ticks, 1)} bytes per record).`,
    '',
    `**Workers (B, F):** one minute and one hour process, ${settings.workerConcurrency === undefined ? 'their default settings' : `\`PARTITIONS_CONCURRENTLY=${settings.workerConcurrency}\``}; A and B ${settings.rounds === 1 ? 'once' : `${settings.rounds} rounds each`}.`,
    '',
  );
  if (options.chart !== undefined)
    lines.push(`![throughput, storage and documents read](${options.chart})`, '');
  lines.push(
    '## Targets',
    '',
    table(
      ['target', 'measured', ''],
      derived.targets.map((t) => [t.target, t.measured, t.met ? '**met**' : '**missed**']),
    ),
    '',
  );
  lines.push('## Designs, consuming the same topic in turn', '', designTable(report, derived), '');
  lines.push(
    '## Ratios (same run)',
    '',
    table(
      ['ratio', 'value', 'of'],
      derived.ratios.map((r) => [r.name, num(r.value, 2), r.of]),
      new Set([1]),
    ),
    '',
  );
  if (options.previous !== undefined) lines.push(...previousRunSection(report, options.previous));
  lines.push(
    '## The workers, by level (coalescing check)',
    '',
    "One DB operation per bucket per flush: `tickertape_db_operations_total ÷ tickertape_buckets_written_total` from each worker's `/metrics` is exactly 1 when no flush had to resolve a replay.",
    '',
    levelTable(report),
    '',
  );
  const processCpu = processCpuSection(report);
  if (processCpu.length > 0) lines.push(...processCpu, '');
  if (report.cpuProfile) lines.push(...cpuProfileSection(report.cpuProfile), '');
  lines.push(...beforeAfterSection(report));
  lines.push(...sketchSection(report));
  if (report.density) lines.push(...densitySection(report.density), '');
  lines.push('## Reads: rollups vs one document per tick', '', readTable(report), '');
  lines.push(
    `The answers agree: largest difference between the two 10-minute averages ${num(reads.window.maxDifference, 9)}; ticks behind the chart, rollups vs raw documents, differ by ${num(reads.chart.maxDifference, 0)}.`,
    '',
    READS_UNDER_LOAD,
    '',
  );
  lines.push(
    '## Produce → visible',
    '',
    table(
      [
        'target rate (½ of B)',
        'achieved rate',
        'ticks',
        'markers',
        'visible',
        'p50 ms',
        'p99 ms',
        'max ms',
      ],
      [
        [
          int(latency.targetRate),
          int(latency.achievedRate),
          int(latency.ticks),
          String(latency.markers),
          String(latency.visible),
          num(latency.p50Ms, 0),
          num(latency.p99Ms, 0),
          num(latency.maxMs, 0),
        ],
      ],
      new Set([0, 1, 2, 3, 4, 5, 6, 7]),
    ),
    '',
    `A minute and an hour worker run on a topic of their own (${load.partitions} partitions, defaults: FLUSH_MAX_WAIT_MS 500, FLUSH_MIN_BYTES 64 KiB) while the two profiles are produced at half of B's rate (${int(b.ticksPerSec)} ticks/s) with the wall clock as event time; every ${settings.markerEveryMs} ms a marker tick on a series of its own. Latency runs from the marker's \`send\` (before the producer's 20 ms linger) until its minute bucket is found by \`_id\` (polled every 20 ms).`,
    '',
  );
  if (report.live) {
    lines.push(
      ...liveSection(report.live, {
        partitions: load.partitions,
        markerEveryMs: settings.markerEveryMs,
      }),
      '',
    );
  }
  const { probe } = report;
  lines.push(
    "## Where B's time goes",
    '',
    table(
      ['upsert filter (unordered bulks of 200)', 'collection size', 'ms per operation'],
      [
        ['`{_id}`', int(probe.documents), num(probe.idOnlyMsPerOp, 3)],
        [
          "`{_id, 'ap.<p>': {$not: {$gte: n}}}` (the workers' exactly-once guard)",
          int(probe.documents),
          num(probe.guardedMsPerOp, 3),
        ],
      ],
      new Set([1, 2]),
    ),
    '',
    `The same upserts cost ${num(probe.guardedMsPerOp / probe.idOnlyMsPerOp, 1)}× as much with the guard on this server. ` +
      (machine.standIn
        ? 'On its own, mongo-java-server uses the `_id` index only for a filter whose keys are exactly `_id` (`AbstractUniqueIndex.canHandle`): with the guard beside it every update scanned and decoded the whole partition collection. Our launcher (`infra/local/mongo/MongoStandIn.java`) serves a filter with an `_id` equality from the `_id` index and applies the rest of the filter to the candidates, as mongod does. '
        : '') +
      `B's two workers were busy on the CPU for ${num((100 * b.cpuSeconds) / (b.seconds * (b.levels?.length ?? 1)), 0)} % of their wall time: ` +
      // On a saturated machine a worker also waits for a core, not only for the database.
      (b.machineBusy !== undefined && b.machineBusy >= 0.85
        ? `the rest they waited, for the database or for a core (the machine was ${num(100 * b.machineBusy, 0)} % busy; see CPU per million ticks by process).`
        : 'the rest they waited for the database.'),
    '',
  );
  if (machine.standIn) {
    // Fixed note: the figures of the last run before the launcher's `_id` lookup fix (the
    // committed docs/benchmarks.md of 2026-11-21T09:19:27Z), beside this run's.
    const ratio = (name: string) => num(derived.ratios.find((r) => r.name === name)!.value, 2);
    lines.push(
      `**Before/after: stand-in \`_id\` lookup.** Before the launcher served the guarded filter from the \`_id\` index (run of 2026-11-21T09:19Z, same profile and machine), the guarded upsert cost 4.197 ms against 0.209 ms for \`{_id}\` alone (20.1×), and B consumed 5,270 ticks/s: B/A 0.06, B/C 2.40, B/E 1.58. This run: ${num(probe.guardedMsPerOp, 3)} ms against ${num(probe.idOnlyMsPerOp, 3)} ms (${num(probe.guardedMsPerOp / probe.idOnlyMsPerOp, 1)}×), B ${int(b.ticksPerSec)} ticks/s: B/A ${ratio('B/A')}, B/C ${ratio('B/C')}, B/E ${ratio('B/E')}. See docs/local-stack.md (mongo-java-server gaps).`,
      '',
      // Fixed note: the two runs of 2026-11-21T11:3xZ that tried PARTITIONS_CONCURRENTLY (three
      // rounds of A and B each, same profile and machine; printed with --no-write).
      '**Tried: concurrent partition flushes.** The workers were 78 % idle on the database, so each process was run flushing 4 partitions at once (`PARTITIONS_CONCURRENTLY=4`): B 19,727 / 20,544 / 20,941 ticks/s in three rounds, against 22,705 / 22,392 / 22,517 with one partition at a time (`bash scripts/bench.sh --worker-concurrency 1`) a few minutes later. No gain on the stand-in (it applies writes one at a time), so the default stays 1; the setting remains for a real MongoDB, whose round trips overlap.',
      '',
    );
  }
  lines.push(
    '## How each figure is measured',
    '',
    "- **ticks/s**: in-process designs (A, C, D, E): from the consumer group join to the commit of the last batch. Workers (B, F): per level from the `joined consumer group` log line to the moment the group has committed the end offset of every partition (polled every 50 ms); the design's rate is the slower level's. Every design fetches with the workers' settings (min 64 KiB, max wait 500 ms, 1 MiB per partition) and decodes with the same TickCodec.",
    '- **DB ops/tick**: document-level writes (insertOne, insertMany documents, upserts; for B/F bucket updates from `tickertape_db_operations_total`). **DB requests/tick**: round trips (insertOne calls, insertMany/bulkWrite calls, `tickertape_bulk_writes_total`).',
    `- **Stored bytes/tick**: data = \`collStats.size\` summed over the design's collections (measured by the server); indexes = BSON size of each index's key values summed over the documents (**estimated** with \`calculateObjectSize\`, sampling at most 20,000 documents per collection and scaling by the count), because mongo-java-server's \`collStats.indexSize\` is not bytes. C stores what it wrote before its cap.`,
    "- **CPU s / M ticks**: `process.cpuUsage()` of the harness process for A, C, D, E; the sum of both workers' `process_cpu_seconds_total` (from the join to the end) for B and F. The database server's, Kafka's and the registry's CPU is not in this column: see CPU per million ticks by process.",
    "- **Worker CPU per tick vs A** (Targets): each level's `process_cpu_seconds_total` per million ticks it applied (the by-level table's CPU s / M ticks) ÷ A's CPU per million ticks; A consumes and decodes the same topic and drops it, so the ratio is what a level costs per tick against consuming alone.",
    `- **Reads**: ${settings.readRuns} runs of each rollup read (the window's average on B and its percentile on S in turns, the first of each pair swapped every round, so a slow spell of the machine falls on both); every rollup read after ${READ_WARM_UP} untimed runs, which pay for compiling its code and loading its buckets into the server's cache; reads of the per-tick collection repeat up to ${settings.readRuns} times within ${num(settings.rawReadBudgetMs / 1000, 0)} s (at least 2). On the per-tick collection, documents examined = documents matched, which is what a real MongoDB reads with the {series, ts} index.` +
      (machine.standIn
        ? " mongo-java-server uses no compound index for a range and scans the collection, so the per-tick latencies here are the stand-in's, not MongoDB's."
        : ''),
    '- p50/p99 are nearest-rank percentiles of the runs.',
    '',
  );
  return `${lines.join('\n')}\n`;
}

/** Where the read load's figures are: a report of its own (read-load-main.ts). */
export const READS_UNDER_LOAD =
  "Under load — seed 001's readers asking the API thousands of times a second, with and without its caches and the caching proxy — see [benchmarks-reads.md](benchmarks-reads.md) (`bash scripts/bench.sh reads`); these are single reads, one at a time, through the query library.";
