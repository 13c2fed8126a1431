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
  const versus = (rollups: string, perTick: string) => {
    const r = report.loads.find((l) => l.name === rollups);
    const c = report.loads.find((l) => l.name === perTick);
    if (!r || !c) return [];
    return [
      `| ${rollups} ÷ ${perTick} | ${fixed(ratio(r.perSecond, c.perSecond))} × | ${fixed(ratio(perCore(r), perCore(c)))} × | ${each(r.dbDocuments, r.requests, 1)} vs ${each(c.dbDocuments, c.requests, 1)} |`,
    ];
  };
  const sideBySide = [
    ...versus('final, caches off', 'final, per-tick design C'),
    ...versus('final, caches on', 'final, per-tick design C'),
    ...versus('last 10 min, caches off', 'last 10 min, per-tick design C'),
    ...versus('last 10 min, caches on', 'last 10 min, per-tick design C'),
  ];
  return [
    `Run of ${new Date(report.startedAt).toISOString()} on ${report.cores} cores: ${settings.mix.sensors.toLocaleString('en')} sensors on routes of ${settings.mix.sensorsPerRoute} (Zipf s = ${settings.mix.zipfS}), ${data.ticks.toLocaleString('en')} ticks written as hour buckets in ${fixed(data.seconds, 0)} s; each load ${settings.connections} connections for ${settings.durationS} s (autocannon in the harness, the API as its own process, the stand-in database and nginx on the same two cores).`,
    '',
    '| load | requests/s | p50 / p99 ms | requests/s per API core | API CPU ms/request | database CPU ms/request | database commands/request | documents/request | answers kept: hits | buckets kept: hits | proxy hits | failed |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...rows.map((row) => `| ${row} |`),
    '',
    ...(sideBySide.length === 0
      ? []
      : [
          `Side by side with one document per tick (design C: the same ticks, ${data.perTickDocs.toLocaleString('en')} documents with the \`{series, ts}\` index, each sensor's window one range find; its server is per-tick-api-main.ts):`,
          '',
          '| rollups ÷ per-tick | requests/s | requests/s per core | documents/request |',
          '| --- | --: | --: | --: |',
          ...sideBySide,
          '',
        ]),
    '| target | measured | |',
    '| --- | --- | --- |',
    ...targets,
  ].join('\n');
}

/** docs/benchmarks-reads.md: the run's tables and how each figure is measured. */
export function readLoadDocument(report: ReadLoadReport): string {
  return [
    "# Reads at seed 001's scale",
    '',
    'Generated by `bash scripts/bench.sh reads` (tools/bench/src/read-load/): do not edit by hand; the figures as JSON are in `docs/benchmarks-reads.json`, and the read side of [capacity.md](capacity.md) is computed from them. What the API does to answer this cheaply: [reading-at-scale.md](reading-at-scale.md).',
    '',
    readLoadMarkdown(report),
    '',
    '## How each figure is measured',
    '',
    `- **Data:** every sensor's hour buckets from two hours before the run to its start, one reading a minute, written through the workers' own writer; the watermarks make the first of those hours final and the rest open. A 10-minute window reads an hour bucket's minutes, so no other level is written.`,
    `- **Questions:** a route's ${report.settings.mix.sensorsPerRoute} sensors listed as \`series=\` (what an app that knows its routes sends): "final" is one of the six 10-minute windows of the final hour, "last 10 min" is \`last=10m\`; routes drawn by a Zipf law (s = ${report.settings.mix.zipfS}), the same seed for every load. "by route tag" asks the same by \`metric\` and \`tag=route:…\`: the reader then finds the series through the metric's index, which holds all ${report.settings.mix.sensors.toLocaleString('en')} sensors of each slot, so it walks past every other route's buckets — the table shows what that costs.`,
    '- **Caches off:** an API with `BUCKET_CACHE_BYTES=0 ANSWER_CACHE_BYTES=0 FINALITY_REFRESH_MS=0` (every request reads the watermarks and its buckets); **caches on**: the defaults. Both count their database commands (`COUNT_DATABASE_COMMANDS=true`). The caches start empty; "final, caches on" is measured after one unreported load of the same questions.',
    "- **requests/s, p50/p99:** autocannon in the harness, each connection asking again as soon as it has an answer. **requests/s per API core:** requests ÷ the API process's CPU seconds over the load (`/proc/<pid>/stat`). **database CPU:** the stand-in's CPU over the load, every client's (nothing else ran). **commands, documents:** the API's `tickertape_api_database_*` counters. **kept: hits:** its `tickertape_api_cache_lookups_total` (coalesced lookups count as hits). **proxy hits:** answers with `X-Cache-Status: HIT`. Repeats (in the targets): requests asking what an earlier one asked within the minute before.",
    "- **The machine:** two cores shared by autocannon, the API, the stand-in database and nginx: the API never has a core to itself, so per-core figures are what it got, and the proxy's throughput is bound by the load generator beside it.",
    '',
  ].join('\n');
}
