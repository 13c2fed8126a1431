import { FigureRegistry, raw } from './figures.js';
import type { BenchJson, BenchJsonDesign } from './input.js';
import {
  byModelLevel,
  designOf,
  type Inputs,
  type LevelInputs,
  type ModelLevel,
} from './input-types.js';
import { benchBuckets, probeBuckets } from './bucket-inputs.js';
import { readInputs } from './read-inputs.js';
import { fmt } from './figures-format.js';

const us = (seconds: number) => `${fmt.fixed(seconds * 1e6, 2)} µs`;

function levelInputs(reg: FigureRegistry, b: BenchJsonDesign, level: ModelLevel): LevelInputs {
  const run = b.levels?.find((l) => l.level === level);
  if (run === undefined)
    throw new Error(`B's ${level} worker is missing from the benchmark's JSON`);
  const at = `designs[B].levels[${level}]`;
  type Counter = 'cpuSeconds' | 'seconds' | 'applied' | 'flushes' | 'buckets' | 'ops';
  const ratio = (what: string, of: Counter, per: Counter, shown: (value: number) => string) => {
    const unit = (counter: Counter) => (counter.endsWith('econds') ? ' s' : '');
    return reg.add(
      `${level}: ${what}`,
      `${at}.${of} ÷ .${per}`,
      `${raw(run[of])}${unit(of)} ÷ ${raw(run[per])}${unit(per)}`,
      run[of] / run[per],
      shown(run[of] / run[per]),
    );
  };
  return {
    cpuPerTick: ratio('worker CPU per tick', 'cpuSeconds', 'applied', us),
    busy: ratio(
      'worker on the CPU, share of its wall time',
      'cpuSeconds',
      'seconds',
      (v) => `${fmt.fixed(100 * v, 0)} %`,
    ),
    coalescing: ratio('DB operations ÷ buckets written', 'ops', 'buckets', (v) => fmt.fixed(v, 3)),
    ticksPerFlush: ratio('ticks per flush', 'applied', 'flushes', (v) => fmt.fixed(v, 0)),
    bucketsPerFlush: ratio('buckets per flush', 'buckets', 'flushes', (v) => fmt.fixed(v, 1)),
  };
}

/** Every measured figure the model uses, numbered in the order the doc lists them. */
export function modelInputs(json: BenchJson): Inputs {
  const reg = new FigureRegistry();
  const a = designOf(json, 'A');
  const b = designOf(json, 'B');
  const bareCpuPerTick = reg.add(
    'bare consumer (A: decode and drop) CPU per tick',
    'designs[A].cpuSeconds ÷ .ticks',
    `${raw(a.cpuSeconds)} s ÷ ${raw(a.ticks)}`,
    a.cpuSeconds / a.ticks,
    us(a.cpuSeconds / a.ticks),
  );
  const recordBytes = reg.add(
    'bytes per Kafka record',
    'load.bytes ÷ load.ticks',
    `${raw(json.load.bytes)} ÷ ${raw(json.load.ticks)}`,
    json.load.bytes / json.load.ticks,
    `${fmt.fixed(json.load.bytes / json.load.ticks, 1)} B`,
  );
  const levels = byModelLevel((level) => levelInputs(reg, b, level));
  const { shape, partitions } = json.load;
  const series = shape.stockSeries.length + shape.trafficSeries.length;
  const spanS = (shape.endMs - shape.startMs) / 1000;
  const benchFlush = {
    seriesPerPartition: reg.add(
      'benchmark: series per partition',
      '(load.shape.stockSeries + trafficSeries) ÷ load.partitions',
      `${series} ÷ ${partitions}`,
      series / partitions,
      fmt.fixed(series / partitions, 1),
    ),
    eventTicksPerSecondPerPartition: reg.add(
      'benchmark: ticks per second of event time per partition',
      'load.shape.total ÷ (endMs − startMs) s ÷ load.partitions',
      `${raw(shape.total)} ÷ ${raw(spanS)} ÷ ${partitions}`,
      shape.total / spanS / partitions,
      fmt.fixed(shape.total / spanS / partitions, 2),
    ),
  };
  const probed = (json.density?.densities.length ?? 0) > 0;
  const { buckets, perTick } = probed ? probeBuckets(reg, json) : benchBuckets(reg, json, b);
  const reads = readInputs(reg, json);
  const standInMsPerOp =
    json.probe === undefined
      ? undefined
      : reg.add(
          "this machine's database: guarded upsert, ms per operation (unordered bulks of 200)",
          'probe.guardedMsPerOp',
          raw(json.probe.guardedMsPerOp),
          json.probe.guardedMsPerOp,
          `${fmt.fixed(json.probe.guardedMsPerOp, 3)} ms`,
        );
  return {
    registry: reg,
    bytesFrom: probed ? 'density probe' : 'benchmark tick set',
    levels,
    bareCpuPerTick,
    recordBytes,
    benchFlush,
    buckets,
    perTick,
    reads,
    ...(standInMsPerOp === undefined ? {} : { standInMsPerOp }),
  };
}
