import type { LoadResult } from './load.js';
import type { ReadLoadReport } from './read-load.js';

/** A row of the read targets (issue 26): what was measured against what it had to reach. */
export interface ReadTarget {
  target: string;
  measured: string;
  met: boolean;
}

const perCore = (load: LoadResult) => load.requests / Math.max(load.apiCpuSeconds, 1e-9);
const ratio = (a: number, b: number) => (b > 0 ? a / b : Infinity);
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '∞');

function find(report: ReadLoadReport, name: string): LoadResult {
  const load = report.loads.find((l) => l.name === name);
  if (!load) throw new Error(`the read load has no "${name}" run`);
  return load;
}

/**
 * The targets, judged on this run's figures only: ratios between loads of the same run, never
 * against a number from another day.
 */
export function readTargets(report: ReadLoadReport): ReadTarget[] {
  const health = find(report, 'health');
  const final = find(report, 'final, caches on');
  const openOff = find(report, 'last 10 min, caches off');
  const openOn = find(report, 'last 10 min, caches on');
  const proxied = find(report, 'last 10 min, through the proxy');
  const seedPerRoute = report.settings.mix.sensorsPerRoute;
  // A 10-minute window ending now touches one or two open hour buckets of each series.
  const openBuckets = 2 * seedPerRoute;
  const finalRatio = ratio(final.perSecond, health.perSecond);
  const coreRatio = ratio(perCore(openOn), perCore(openOff));
  const docsPerRequest = openOn.dbDocuments / Math.max(openOn.requests, 1);
  const proxyRatio = ratio(proxied.perSecond, openOff.perSecond);
  return [
    {
      target: 'final windows: requests/s ≥ 0.5 × the same process’s /health',
      measured: `${fixed(finalRatio, 2)} × (${fixed(final.perSecond, 0)} against ${fixed(health.perSecond, 0)} /s)`,
      met: finalRatio >= 0.5,
    },
    {
      target: 'final windows: p99 ≤ 20 ms at that load',
      measured: `${final.p99Ms} ms`,
      met: final.p99Ms <= 20,
    },
    {
      target: 'last 10 minutes: requests/s per API core ≥ 5 × with the caches off',
      measured: `${fixed(coreRatio)} × (${fixed(perCore(openOn), 0)} against ${fixed(perCore(openOff), 0)})`,
      met: coreRatio >= 5,
    },
    {
      target: `last 10 minutes: database documents per request ≤ the open buckets (${openBuckets})`,
      measured: fixed(docsPerRequest, 2),
      met: docsPerRequest <= openBuckets,
    },
    {
      target:
        'through the proxy, ≥ 90 % repeats within a minute: ≥ 20 × the uncached API’s requests/s',
      measured: `${fixed(proxyRatio)} × at ${fixed(100 * proxied.repeatShare)} % repeats`,
      met: proxyRatio >= 20 && proxied.repeatShare >= 0.9,
    },
  ];
}

const pct = (part: number, whole: number) =>
  whole > 0 ? `${fixed((100 * part) / whole, 0)} %` : '–';
const each = (total: number, requests: number, digits = 2) =>
  requests > 0 ? fixed(total / requests, digits) : '–';

/** The read-load section of docs/benchmarks.md. */
export function readLoadMarkdown(report: ReadLoadReport): string {
  const { settings, data } = report;
  const rows = report.loads.map((l) =>
    [
      l.name,
      fixed(l.perSecond, 0),
      `${l.p50Ms} / ${l.p99Ms}`,
      fixed(perCore(l), 0),
      each(1000 * l.apiCpuSeconds, l.requests),
      l.dbCpuSeconds === null ? 'not measured' : each(1000 * l.dbCpuSeconds, l.requests),
      each(l.dbCommands, l.requests),
      each(l.dbDocuments, l.requests, 1),
      pct(l.answers.hits, l.answers.lookups),
      pct(l.buckets.hits, l.buckets.lookups),
      l.proxyHits === null ? '–' : pct(l.proxyHits, l.requests),
      String(l.failed),
    ].join(' | '),
  );
  const targets = readTargets(report).map(
    (t) => `| ${t.target} | ${t.measured} | ${t.met ? 'met' : '**not met**'} |`,
  );
  return [
    `Run of ${new Date(report.startedAt).toISOString()} on ${report.cores} cores: ${settings.mix.sensors.toLocaleString('en')} sensors on routes of ${settings.mix.sensorsPerRoute} (Zipf s = ${settings.mix.zipfS}), ${data.ticks.toLocaleString('en')} ticks written as hour buckets in ${fixed(data.seconds, 0)} s; each load ${settings.connections} connections for ${settings.durationS} s (autocannon in the harness, the API as its own process, the stand-in database and nginx on the same two cores).`,
    '',
    '| load | requests/s | p50 / p99 ms | requests/s per API core | API CPU ms/request | database CPU ms/request | database commands/request | documents/request | answers kept: hits | buckets kept: hits | proxy hits | failed |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...rows.map((row) => `| ${row} |`),
    '',
    '| target | measured | |',
    '| --- | --- | --- |',
    ...targets,
  ].join('\n');
}
