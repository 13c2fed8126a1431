import { cellLabel, liveFigures } from './live/live-figures.js';
import { bytesPerTick } from './report.js';
import type { BenchReport } from './bench-report.js';

const DESIGNS = ['A', 'B', 'C', 'D', 'E', 'F', 'S'];

interface Bar {
  panel: string;
  label: string;
  series: string;
  value: number;
}

/** The figures the chart draws: one panel per question, one bar per design or store. */
export function chartBars(report: BenchReport): Bar[] {
  const bars: Bar[] = [];
  for (const run of report.designs) {
    bars.push({
      panel: 'ticks/s',
      label: run.key,
      series: 'design',
      value: Math.round(run.ticksPerSec),
    });
    const bytes = bytesPerTick(run);
    if (bytes !== undefined) {
      bars.push({
        panel: 'stored bytes per tick',
        label: run.key,
        series: 'design',
        value: Math.round(bytes * 10) / 10,
      });
    }
  }
  const { window, chart } = report.reads;
  for (const [label, side] of [
    ['10-min avg, 50 sensors', window],
    ['one-day chart', chart],
  ] as const) {
    bars.push({
      panel: 'documents examined',
      label,
      series: 'rollups (B)',
      value: side.rollups.examined,
    });
    bars.push({
      panel: 'documents examined',
      label,
      series: 'per tick (D)',
      value: side.perTick.examined,
    });
  }
  for (const row of report.live ? liveFigures(report.live) : []) {
    bars.push({
      panel: 'live DB ops per tick',
      label: cellLabel(row.cell),
      series: row.design === 'ours' ? `tickertape ${row.store}` : row.design,
      value: Math.round(row.opsPerTick * 1000) / 1000,
    });
  }
  return bars;
}

/**
 * A Vega-Lite spec of three bar panels (throughput, stored bytes per tick, documents examined
 * on a log scale), rendered to SVG by Vega in Node: no canvas, no browser, no native module.
 */
export async function renderChart(report: BenchReport): Promise<string> {
  // Loaded on demand (only a written report needs them), one after the other: jest's ESM
  // loader fails on two concurrent imports that share modules ("not in cache").
  const vega = await import('vega');
  const vegaLite = await import('vega-lite');
  const bars = chartBars(report);
  const panel = (name: string, title: string, log = false) => ({
    title,
    data: { values: bars.filter((bar) => bar.panel === name) },
    mark: { type: 'bar', tooltip: true },
    width: 220,
    height: 220,
    encoding: {
      x: { field: 'label', type: 'nominal', title: null, axis: { labelAngle: 0 } },
      ...(name === 'documents examined' || name === 'live DB ops per tick'
        ? {
            xOffset: { field: 'series', type: 'nominal' },
            color: { field: 'series', type: 'nominal', title: null },
          }
        : // The same colour for a design in both panels.
          { color: { field: 'label', type: 'nominal', legend: null, scale: { domain: DESIGNS } } }),
      y: {
        field: 'value',
        type: 'quantitative',
        title: null,
        // Grouped, not stacked: a stack starts at 0, which a log scale cannot draw.
        stack: null,
        ...(log ? { scale: { type: 'log' } } : {}),
      },
    },
  });
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `tickertape benchmark, ${new Date(report.startedAt).toISOString().slice(0, 10)}`,
      subtitle: `${report.load.shape.total.toLocaleString('en-US')} ticks, ${report.machine.cores} cores; A no-op, B tickertape, C insertOne, D insertMany, E upserts, F with shells`,
    },
    hconcat: [
      panel('ticks/s', 'ticks/s (higher is better)'),
      panel('stored bytes per tick', 'stored bytes per tick'),
      panel('documents examined', 'documents examined (log)', true),
      ...(report.live
        ? [panel('live DB ops per tick', 'live: DB operations per tick (log)', true)]
        : []),
    ],
    // Each panel its own colours and its own y axis.
    resolve: { scale: { color: 'independent', y: 'independent' } },
    config: { font: 'sans-serif' },
  };
  const compiled = vegaLite.compile(spec as unknown as Parameters<typeof vegaLite.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  return view.toSVG();
}
