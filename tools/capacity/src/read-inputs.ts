import { raw, type Figure, type FigureRegistry } from './figures.js';
import type { BenchJson } from './input.js';
import type { Inputs } from './input-types.js';
import { fmt } from './figures-format.js';

const QUERIES = { window: '10-minute average', chart: 'one-day chart' } as const;
const SIDES = { rollups: 'rollups', perTick: 'per-tick collection' } as const;

/** The standard reads as the benchmark measured them: documents examined and latencies. */
export function readInputs(reg: FigureRegistry, json: BenchJson): Inputs['reads'] {
  const { window, chart } = json.reads;
  const count = (query: keyof typeof QUERIES, what: string, field: string, value: number) =>
    reg.add(
      `${QUERIES[query]}: ${what}`,
      `reads.${query}.${field}`,
      raw(value),
      value,
      fmt.int(value),
    );
  const timing = (
    query: keyof typeof QUERIES,
    side: keyof typeof SIDES,
    p: 'p50Ms' | 'p99Ms',
  ): Figure => {
    const value = json.reads[query][side][p];
    return reg.add(
      `${QUERIES[query]}, ${SIDES[side]}: ${p.slice(0, 3)}`,
      `reads.${query}.${side}.${p}`,
      raw(value),
      value,
      `${fmt.fixed(value, 1)} ms`,
    );
  };
  const minutes = (window.toMs - window.fromMs) / 60_000;
  const hours = (chart.toMs - chart.fromMs) / 3_600_000;
  return {
    windowSensors: count('window', 'sensors', 'sensors', window.sensors),
    windowMinutes: reg.add(
      `${QUERIES.window}: window`,
      'reads.window: (toMs − fromMs) ÷ 60,000',
      `(${raw(window.toMs)} − ${raw(window.fromMs)}) ÷ 60,000`,
      minutes,
      `${fmt.int(minutes)}-minute`,
    ),
    windowRollups: count(
      'window',
      'documents examined (rollups)',
      'rollups.examined',
      window.rollups.examined,
    ),
    windowP50: timing('window', 'rollups', 'p50Ms'),
    windowP99: timing('window', 'rollups', 'p99Ms'),
    windowPerTickP50: timing('window', 'perTick', 'p50Ms'),
    windowPerTickP99: timing('window', 'perTick', 'p99Ms'),
    chartHours: reg.add(
      `${QUERIES.chart}: range`,
      'reads.chart: (toMs − fromMs) ÷ 3,600,000',
      `(${raw(chart.toMs)} − ${raw(chart.fromMs)}) ÷ 3,600,000`,
      hours,
      `${fmt.fixed(hours, 1)} h`,
    ),
    chartRollups: count(
      'chart',
      'documents examined (rollups)',
      'rollups.examined',
      chart.rollups.examined,
    ),
    chartP50: timing('chart', 'rollups', 'p50Ms'),
    chartP99: timing('chart', 'rollups', 'p99Ms'),
    chartPerTickP50: timing('chart', 'perTick', 'p50Ms'),
    chartPerTickP99: timing('chart', 'perTick', 'p99Ms'),
  };
}
