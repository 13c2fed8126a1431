/**
 * Our answers against Prometheus' own engine: `promtool test rules` (Debian's prometheus 2.42,
 * the release the API follows) loads the same samples, evaluates each query and compares with
 * the values we computed, exactly (it compares floats with reflect.DeepEqual). One sample a
 * minute, so every minute point is one tick: the case where quantiles and spread must be exact.
 *
 * The windows line up as in docs/analysts.md: samples sit on the minute, and a range at our time
 * `t` covers [t − d, t) in whole minutes, which is Prometheus' [t − 1s − d, t − 1s].
 */
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  evaluate,
  instantData,
  matchesAll,
  parsePromQL,
  type SampleSource,
  type WidthPoint,
} from '../../src/index.js';

const MINUTE = 60_000;
const MINUTES = 120;

/** Values across five decades, both signs, zeros and gaps (`null`: no sample that minute). */
function values(seed: number): (number | null)[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: MINUTES }, () => {
    const r = next();
    if (r < 0.08) return null;
    if (r < 0.14) return 0;
    const magnitude = 10 ** (next() * 5 - 2);
    return Math.round((next() < 0.3 ? -magnitude : magnitude) * 1e4) / 1e4;
  });
}

const SERIES = [
  { labels: { __name__: 'gauge_level', g: 'a', s: '1' }, values: values(1) },
  { labels: { __name__: 'gauge_level', g: 'a', s: '2' }, values: values(2) },
  { labels: { __name__: 'gauge_level', g: 'b', s: '3' }, values: values(3) },
];

/** The samples as buckets keep them at the width asked: n, Σx, Σx², min, max, first, last. */
const source: SampleSource = {
  widths: [86_400_000, 3_600_000, MINUTE, 1000],
  read: (matchers, request) =>
    Promise.resolve({
      openLevels: [],
      series: SERIES.filter((s) => matchesAll(matchers, s.labels)).map((s) => {
        const points = new Map<number, WidthPoint>();
        s.values.forEach((v, i) => {
          const t = i * MINUTE;
          if (v === null || t < request.fromMs || t >= request.toMs) return;
          const start = Math.floor(t / request.widthMs) * request.widthMs;
          const p = points.get(start);
          if (!p)
            points.set(start, {
              t: start,
              n: 1,
              sum: v,
              sq: v * v,
              min: v,
              max: v,
              first: v,
              last: v,
            });
          else
            Object.assign(p, {
              n: p.n + 1,
              sum: p.sum + v,
              sq: p.sq! + v * v,
              min: Math.min(p.min, v),
              max: Math.max(p.max, v),
              last: v,
            });
        });
        return { labels: s.labels, points: [...points.values()] };
      }),
    }),
};

const QUERIES = [
  ...[0, 0.25, 0.5, 0.85, 0.99, 1, -0.5, 1.5].map(
    (phi) => `quantile_over_time(${phi}, gauge_level[10m])`,
  ),
  // An hour's range: still read by the minute (quantiles), so still exact.
  'quantile_over_time(0.9, gauge_level[1h])',
  'stddev_over_time(gauge_level[10m])',
  'stdvar_over_time(gauge_level[30m])',
  'stddev_over_time(gauge_level[10m] offset 5m)',
  'max by (g) (stddev_over_time(gauge_level[10m]))',
  'topk(2, quantile_over_time(0.5, gauge_level[15m]))',
  'min without (s) (quantile_over_time(0.85, gauge_level[20m] offset 10m))',
  'bottomk(1, stdvar_over_time(gauge_level{g="a"}[50m]))',
];
const TIMES = [12, 31, 47, 60, 89, 119].map((m) => m * MINUTE);

/**
 * A sample value of the API's JSON as YAML reads it into Go's float64 (JavaScript's shortest form
 * parses back exactly).
 */
const yamlFloat = (text: string) =>
  text === '+Inf' ? '.inf' : text === '-Inf' ? '-.inf' : String(Number(text));

const seriesText = (labels: Record<string, string>) => {
  const { __name__: name = '', ...rest } = labels;
  const pairs = Object.entries(rest).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `${name}{${pairs.join(', ')}}`;
};

describe('quantile_over_time, stddev_over_time and stdvar_over_time against Prometheus', () => {
  it('agree exactly with promtool on one sample a minute', async () => {
    const cases: string[] = [];
    for (const query of QUERIES)
      for (const t of TIMES) {
        const { value } = await evaluate(parsePromQL(query), [t], undefined, source);
        const data = instantData(value, t);
        if (data.resultType !== 'vector') throw new Error(`${query} is not a vector`);
        const samples = data.result.map(
          (r) =>
            `{labels: ${JSON.stringify(seriesText(r.metric))}, value: ${yamlFloat(r.value[1])}}`,
        );
        expect(samples.length).toBeGreaterThan(0);
        cases.push(
          `{expr: ${JSON.stringify(query)}, eval_time: ${t / 1000 - 1}s, exp_samples: [${samples.join(', ')}]}`,
        );
      }
    const input = SERIES.map(
      (s) =>
        `{series: ${JSON.stringify(seriesText(s.labels))}, values: "${s.values.map((v) => (v === null ? '_' : String(v))).join(' ')}"}`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'promql-against-prometheus-'));
    try {
      const file = join(dir, 'cases.yml');
      writeFileSync(
        file,
        `rule_files: []\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series: [${input.join(', ')}]\n    promql_expr_test:\n${cases.map((c) => `      - ${c}\n`).join('')}`,
      );
      const run = await promisify(execFile)('promtool', ['test', 'rules', file]).catch(
        (err: { stdout?: string; stderr?: string }) => err,
      );
      expect(`${run.stdout ?? ''}${run.stderr ?? ''}`).toContain('SUCCESS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
