import { raw, type FigureRegistry } from './figures.js';
import type { BenchJson, BenchJsonDesign } from './input.js';
import {
  MODEL_LEVELS,
  designOf,
  keyedByMinute,
  type BucketPoint,
  type Inputs,
  type ModelLevel,
} from './input-types.js';
import { fmt } from './figures-format.js';

const perSecondShown = (value: number) => `${raw(value)} ticks/s per series`;

/** Bytes per bucket at each density of the probe, when the JSON has one. */
export function probeBuckets(reg: FigureRegistry, json: BenchJson) {
  const densities = json.density?.densities ?? [];
  const buckets: Record<ModelLevel, BucketPoint[]> = { minute: [], hour: [] };
  const perTick: Inputs['perTick'] = [];
  densities.forEach((d, i) => {
    const at = `density.densities[${i}]`;
    const perSecond = reg.add(
      'density probe: rate per series',
      `${at}.perSecond`,
      raw(d.perSecond),
      d.perSecond,
      perSecondShown(d.perSecond),
    );
    for (const level of MODEL_LEVELS) {
      const part = d.levels[level];
      const bytes = part.dataBytes + part.indexBytes;
      const point: BucketPoint = {
        perSecond,
        bytesPerBucket: reg.add(
          `density probe at ${raw(d.perSecond)}/s: ${level} bytes per bucket`,
          `${at}.levels.${level}: (dataBytes + indexBytes) ÷ documents`,
          `(${raw(part.dataBytes)} + ${raw(part.indexBytes)}) ÷ ${raw(part.documents)}`,
          bytes / part.documents,
          `${fmt.int(bytes / part.documents)} B`,
        ),
      };
      if (keyedByMinute(level)) {
        const minutes = (d.series * d.durationMs) / 60_000 / part.documents;
        point.minutesPerBucket = reg.add(
          `density probe at ${raw(d.perSecond)}/s: minutes of data per hour bucket`,
          `${at}: series × durationMs ÷ 60,000 ÷ levels.hour.documents`,
          `${raw(d.series)} × ${raw(d.durationMs)} ÷ 60,000 ÷ ${raw(part.documents)}`,
          minutes,
          fmt.fixed(minutes, 1),
        );
      }
      buckets[level].push(point);
    }
    const c = d.perTick;
    perTick.push({
      perSecond,
      bytesPerTick: reg.add(
        `density probe at ${raw(d.perSecond)}/s: one document per tick (C), bytes per tick`,
        `${at}.perTick: (dataBytes + indexBytes) ÷ ${at}.ticks`,
        `(${raw(c.dataBytes)} + ${raw(c.indexBytes)}) ÷ ${raw(d.ticks)}`,
        (c.dataBytes + c.indexBytes) / d.ticks,
        `${fmt.fixed((c.dataBytes + c.indexBytes) / d.ticks, 1)} B`,
      ),
    });
  });
  return { buckets, perTick };
}

/** Without the probe: the benchmark's own tick set, at its mean rate per series. */
export function benchBuckets(reg: FigureRegistry, json: BenchJson, b: BenchJsonDesign) {
  const { shape } = json.load;
  const series = shape.stockSeries.length + shape.trafficSeries.length;
  const spanS = (shape.endMs - shape.startMs) / 1000;
  const perSecond = reg.add(
    'benchmark tick set: mean rate per series',
    'load.shape: total ÷ (stockSeries + trafficSeries) ÷ (endMs − startMs) s',
    `${raw(shape.total)} ÷ ${series} ÷ ${raw(spanS)} s`,
    shape.total / series / spanS,
    perSecondShown(shape.total / series / spanS),
  );
  const buckets: Record<ModelLevel, BucketPoint[]> = { minute: [], hour: [] };
  for (const level of MODEL_LEVELS) {
    const parts = (b.stored?.byCollection ?? []).filter((c) =>
      c.name.startsWith(`rollup_${level}_`),
    );
    const documents = parts.reduce((s, c) => s + c.documents, 0);
    const bytes = parts.reduce((s, c) => s + c.dataBytes + c.indexBytes, 0);
    const point: BucketPoint = {
      perSecond,
      bytesPerBucket: reg.add(
        `benchmark B: ${level} bytes per bucket`,
        `designs[B].stored.byCollection[rollup_${level}_*]: (dataBytes + indexBytes) ÷ documents`,
        `${raw(bytes)} ÷ ${raw(documents)}`,
        bytes / documents,
        `${fmt.int(bytes / documents)} B`,
      ),
    };
    if (keyedByMinute(level)) {
      const minutes = (series * spanS) / 60 / documents;
      point.minutesPerBucket = reg.add(
        'benchmark B: minutes of data per hour bucket',
        'series × (load.shape.endMs − startMs) ÷ 60,000 ÷ hour documents',
        `${series} × ${raw(spanS / 60)} ÷ ${raw(documents)}`,
        minutes,
        fmt.fixed(minutes, 1),
      );
    }
    buckets[level].push(point);
  }
  const d = designOf(json, 'D');
  const stored = d.stored?.byCollection ?? [];
  const cBytes = stored.reduce((s, c) => s + c.dataBytes + c.indexBytes, 0);
  const perTick = [
    {
      perSecond,
      bytesPerTick: reg.add(
        'benchmark D: one document per tick, bytes per tick',
        'designs[D].stored.byCollection: (dataBytes + indexBytes) ÷ designs[D].ticks',
        `${raw(cBytes)} ÷ ${raw(d.ticks)}`,
        cBytes / d.ticks,
        `${fmt.fixed(cBytes / d.ticks, 1)} B`,
      ),
    },
  ];
  return { buckets, perTick };
}
