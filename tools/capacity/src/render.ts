import type { Figure } from './figures.js';
import type { BenchJson } from './input.js';
import { MODEL_LEVELS, type Inputs } from './input-types.js';
import {
  ASSUMPTIONS,
  SLOT_SECONDS,
  bucketsPerFlush,
  type LevelPlan,
  type ScenarioPlan,
} from './model.js';
import { markdownTable } from '@tickertape/answers';
import { fmt } from './figures-format.js';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function bytesShown(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${fmt.fixed(value, unit === 0 ? 0 : 1)} ${UNITS[unit]}`;
}

const ids = (...figures: readonly (Figure | undefined)[]) =>
  [...new Set(figures.filter((f) => f !== undefined).map((f) => f.id))].join(', ');

const rateCells = (p: ScenarioPlan) => [fmt.int(p.rate), fmt.int(p.series), String(p.perSecond)];
const rateColumns = [
  { head: 'ticks/s', right: true },
  { head: 'series', right: true },
  { head: 'ticks/s per series', right: true },
];

/** ↑ / ↓: the bucket size comes from a density below / above the scenario's. */
const mark = (level: LevelPlan) =>
  level.outside === 'above' ? ' ↑' : level.outside === 'below' ? ' ↓' : '';

export function workersSection(inputs: Inputs, plans: readonly ScenarioPlan[]): string[] {
  const { minute, hour } = inputs.levels;
  const u = ASSUMPTIONS.utilisation;
  return [
    '## Workers, cores and topic partitions',
    '',
    `Workers of a level = ⌈R × its worker's CPU per tick ÷ ${u}⌉: one worker is one Node process, busy on one core at most ${u * 100} % of the time (headroom for bursts, garbage collection and rebalances). Cores = the workers of both levels. ` +
      `Partitions = the largest level's workers, at least ${ASSUMPTIONS.minPartitions}, rounded up to a power of two: a consumer group gives each partition to one consumer, so more workers than partitions idle, and a keyed topic's partition count is best set once (adding partitions moves series to other partitions).`,
    '',
    ...markdownTable(
      [
        ...rateColumns,
        { head: 'minute: CPU (cores)', right: true },
        { head: 'minute workers', right: true },
        { head: 'hour: CPU (cores)', right: true },
        { head: 'hour workers', right: true },
        { head: 'cores', right: true },
        { head: 'partitions', right: true },
        { head: 'from' },
      ],
      plans.map((p) => [
        ...rateCells(p),
        fmt.fixed(p.levels.minute.cpuCores, 2),
        fmt.int(p.levels.minute.workers),
        fmt.fixed(p.levels.hour.cpuCores, 2),
        fmt.int(p.levels.hour.workers),
        fmt.int(p.cores),
        fmt.int(p.partitions),
        ids(minute.cpuPerTick, hour.cpuPerTick),
      ]),
    ),
    '',
    `Extrapolated: the CPU per tick is the benchmark's (${minute.cpuPerTick.shown} minute, ${hour.cpuPerTick.shown} hour, against ${inputs.bareCpuPerTick.shown} for the bare consumer, ${inputs.bareCpuPerTick.id}), measured with ${inputs.benchFlush.seriesPerPartition.shown} series per partition; with many more series a flush's ticks share fewer buckets and the per-bucket part of the work (update documents, BSON) grows. ` +
      `CPU only: on this machine the workers were on the CPU ${minute.busy.shown} (minute, ${minute.busy.id}) and ${hour.busy.shown} (hour, ${hour.busy.id}) of their wall time and waited for the database the rest; a worker keeps up only if its database answers fast enough (next section).`,
  ];
}

export function operationsSection(inputs: Inputs, plans: readonly ScenarioPlan[]): string[] {
  const { seriesPerPartition, eventTicksPerSecondPerPartition: rp } = inputs.benchFlush;
  const check = MODEL_LEVELS.map((level) => {
    const l = inputs.levels[level];
    const spanS = l.ticksPerFlush.value / rp.value;
    const predicted = bucketsPerFlush(
      l.ticksPerFlush.value,
      seriesPerPartition.value,
      spanS,
      SLOT_SECONDS[level],
    );
    return [
      level,
      l.ticksPerFlush.shown,
      fmt.fixed(spanS, 1),
      fmt.fixed(predicted, 1),
      l.bucketsPerFlush.shown,
      l.coalescing.shown,
      ids(l.ticksPerFlush, rp, seriesPerPartition, l.bucketsPerFlush, l.coalescing),
    ];
  });
  const op = inputs.standInMsPerOp;
  return [
    '## Database operations per second',
    '',
    `A flush writes one operation per bucket it touches (measured: DB operations ÷ buckets written = ${inputs.levels.minute.coalescing.shown} minute, ${inputs.levels.hour.coalescing.shown} hour). A flush of one partition spanning E seconds touches each of the partition's series that ticked in it once, and once more when the series crosses a slot boundary inside it, never more buckets than it has ticks. Summed over all partitions: ` +
      '**operations/s of a level = min(R, S ÷ E + S ÷ slot)**. ' +
      `E is the shortest a flush can span: **E = min(the level's freshness budget (minute ${ASSUMPTIONS.budgetS.minute} s, hour ${ASSUMPTIONS.budgetS.hour} s), ${fmt.int(ASSUMPTIONS.flushMaxTicks)} × partitions ÷ R, ${bytesShown(ASSUMPTIONS.heldMaxBytes)} × the level's workers ÷ (R × ${ASSUMPTIONS.heldBytesPerTick} B))**: a worker holds each partition's ticks across fetches until the oldest has waited FRESHNESS_BUDGET_MS, unless the partition holds FLUSH_MAX_TICKS first or all its holds pass HELD_MAX_BYTES at the estimated ${ASSUMPTIONS.heldBytesPerTick} B per held tick (the workers' defaults; docs/freshness.md). ` +
      'A flush also waits for the budget timer’s check (up to 1 s more), which makes flushes longer and the operations fewer, so these are upper bounds.',
    '',
    "The same reasoning applied to the benchmark's own flushes (its topic was loaded before the workers started, so E = ticks per flush ÷ ticks per second of event time per partition), against what they measured. `1 + E ÷ slot` is the expected count for a flush placed at random against the slot boundaries; the benchmark's tick set straddles an hour boundary on purpose, so its hour buckets per flush come out higher:",
    '',
    ...markdownTable(
      [
        { head: 'level' },
        { head: 'ticks/flush', right: true },
        { head: 'E (s of event time)', right: true },
        { head: 'buckets/flush, formula', right: true },
        { head: 'buckets/flush, measured', right: true },
        { head: 'DB ops ÷ buckets', right: true },
        { head: 'from' },
      ],
      check,
    ),
    '',
    ...markdownTable(
      [
        ...rateColumns,
        { head: 'partitions', right: true },
        { head: 'minute E (s)', right: true },
        { head: 'hour E (s)', right: true },
        { head: 'minute ops/s', right: true },
        { head: 'hour ops/s', right: true },
        { head: 'total ops/s', right: true },
        { head: 'ops per tick', right: true },
        { head: 'from' },
      ],
      plans.map((p) => {
        const total = p.levels.minute.operationsPerSecond + p.levels.hour.operationsPerSecond;
        return [
          ...rateCells(p),
          fmt.int(p.partitions),
          fmt.fixed(p.levels.minute.flushSpanS, 3),
          fmt.fixed(p.levels.hour.flushSpanS, 3),
          fmt.int(p.levels.minute.operationsPerSecond),
          fmt.int(p.levels.hour.operationsPerSecond),
          fmt.int(total),
          fmt.fixed(total / p.rate, 3),
          ids(
            inputs.levels.minute.coalescing,
            inputs.levels.hour.coalescing,
            inputs.levels.minute.cpuPerTick,
            inputs.levels.hour.cpuPerTick,
            inputs.recordBytes,
          ),
        ];
      }),
    ),
    '',
    op === undefined
      ? 'How many of these operations a database sustains is not measured here.'
      : `How many of these operations a database sustains is not measured here: this machine's database applied the workers' guarded upsert in ${op.shown} (${op.id}), about ${fmt.int(1000 / op.value)} per second on one connection — a figure of the local stand-in, which applies writes one at a time, not of mongod. Size the MongoDB deployment for the operations/s above by measuring it.`,
  ];
}

export function storageSection(inputs: Inputs, plans: readonly ScenarioPlan[]): string[] {
  const bytesFrom = inputs.bytesFrom;
  return [
    '## Documents and bytes per day',
    '',
    `Documents per day of a level = S × slots per day × min(1, ticks/s per series × slot): every slot of every series that saw a tick (evenly spaced ticks). ` +
      `Bytes per bucket: the stored bytes (data + estimated index, as docs/benchmarks.md measures them) per document of that level from the ${bytesFrom}, at the measured density nearest the scenario's; an hour bucket measured over fewer than 60 minutes is scaled to 60 (its fixed part counted again: an upper bound). Bytes per day = documents × bytes per bucket. ` +
      'One document per tick (the per-tick design C, with its {series, ts} index) for comparison: R × 86,400 × its bytes per tick at the nearest density.',
    '',
    ...markdownTable(
      [
        ...rateColumns,
        { head: 'minute docs/day', right: true },
        { head: 'minute B/bucket', right: true },
        { head: 'minute bytes/day', right: true },
        { head: 'hour docs/day', right: true },
        { head: 'hour B/bucket', right: true },
        { head: 'hour bytes/day', right: true },
        { head: 'rollups bytes/day', right: true },
        { head: 'one doc per tick bytes/day', right: true },
        { head: 'from' },
      ],
      plans.map((p) => {
        const { minute, hour } = p.levels;
        return [
          ...rateCells(p),
          fmt.int(minute.documentsPerDay),
          `${fmt.int(minute.bytesPerBucket)}${mark(minute)}`,
          bytesShown(minute.bytesPerDay),
          fmt.int(hour.documentsPerDay),
          `${fmt.int(hour.bytesPerBucket)}${mark(hour)}`,
          bytesShown(hour.bytesPerDay),
          bytesShown(minute.bytesPerDay + hour.bytesPerDay),
          bytesShown(p.perTickBytesPerDay),
          ids(
            minute.bucketPoint.bytesPerBucket,
            hour.bucketPoint.bytesPerBucket,
            hour.bucketPoint.minutesPerBucket,
            p.perTickFrom,
          ),
        ];
      }),
    ),
    '',
    '↑: the scenario is denser than any measured density, the size is the densest one’s (a bucket stops growing once every sub-slot holds a value). ↓: sparser than any measured, the size is the sparsest one’s (an upper bound: a sparser bucket holds fewer values). ' +
      'Sizes are BSON bytes as the server reports them before any compression: MongoDB’s WiredTiger compresses both designs on disk.',
  ];
}

export function readsSection(
  inputs: Inputs,
  plans: readonly ScenarioPlan[],
  json: BenchJson,
): string[] {
  const r = inputs.reads;
  const sensors = r.windowSensors.shown;
  return [
    '## Read cost of the standard queries',
    '',
    `The ${r.windowMinutes.shown} average of ${sensors} sensors reads each sensor's buckets covering the window, and a one-day chart of one series reads that day's buckets of the level the reader picks (the benchmark's chart: ${json.reads.chart.resolution}); neither grows with the rate or the number of series. ` +
      `With one document per tick they read ${sensors} × window seconds × ticks/s per series, and 86,400 × ticks/s per series, documents. The benchmark's tick set covered only part of the chart's day, so it read ${r.chartRollups.shown} (${r.chartRollups.id}); the table counts a whole day.`,
    '',
    ...markdownTable(
      [
        ...rateColumns,
        { head: `${r.windowMinutes.shown} average: rollups docs`, right: true },
        { head: `${r.windowMinutes.shown} average: per-tick docs`, right: true },
        { head: 'day chart: rollups docs', right: true },
        { head: 'day chart: per-tick docs', right: true },
        { head: 'from' },
      ],
      plans.map((p) => [
        ...rateCells(p),
        fmt.int(p.reads.windowRollups),
        fmt.int(p.reads.windowPerTick),
        fmt.int(p.reads.chartRollups),
        fmt.int(p.reads.chartPerTick),
        ids(r.windowRollups, r.windowSensors, r.windowMinutes, r.chartHours),
      ]),
    ),
    '',
    `Measured latency on this machine, whose database is ${json.machine.standIn ? 'the local stand-in (mongo-java-server and our launcher), not mongod, so the per-tick figures especially are the stand-in’s' : json.machine.database}; not extrapolated:`,
    '',
    ...markdownTable(
      [
        { head: 'query' },
        { head: 'rollups p50', right: true },
        { head: 'rollups p99', right: true },
        { head: 'per tick p50', right: true },
        { head: 'per tick p99', right: true },
        { head: 'from' },
      ],
      [
        [
          `${r.windowMinutes.shown} average of ${sensors} sensors`,
          r.windowP50.shown,
          r.windowP99.shown,
          r.windowPerTickP50.shown,
          r.windowPerTickP99.shown,
          ids(r.windowP50, r.windowP99, r.windowPerTickP50, r.windowPerTickP99),
        ],
        [
          'one-day chart of one series',
          r.chartP50.shown,
          r.chartP99.shown,
          r.chartPerTickP50.shown,
          r.chartPerTickP99.shown,
          ids(r.chartP50, r.chartP99, r.chartPerTickP50, r.chartPerTickP99),
        ],
      ],
    ),
  ];
}

export function figuresSection(inputs: Inputs): string[] {
  return [
    '## Measured figures',
    '',
    'Every number above comes from these, read from the benchmark’s JSON by the field named.',
    '',
    ...markdownTable(
      [
        { head: 'id' },
        { head: 'figure' },
        { head: 'JSON field' },
        { head: 'JSON values', right: true },
        { head: 'value', right: true },
      ],
      inputs.registry.figures.map((f) => [f.id, f.what, `\`${f.field}\``, f.source, f.shown]),
    ),
  ];
}
