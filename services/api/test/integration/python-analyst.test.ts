/**
 * The analysts' examples (examples/python-analyst, docs/analysts.md) run by Python itself —
 * pandas, pyarrow, pymongo and DuckDB from the pinned venv — against the API and the database on
 * the real stack, and what each read is compared with the API's own JSON: exact values, and
 * the dtypes pandas gives the times. The pymongo example must carry the very pipeline
 * docs/data-layout.md documents (and packages/store's layout test runs), and must skip the
 * shells' padding the data here has.
 */
import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runProcess, TestStack } from '@tickertape/testing';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import vm from 'node:vm';
import type { Db } from 'mongodb';
import type { PointsBody, WindowBody } from '../../src/response-schemas.js';
import { ANALYST_NOW, ANALYST_SERIES, writeAnalystData } from '../support/analyst-data.js';
import { TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { testDatabase } from '@tickertape/store/testing';

const EXAMPLES = fileURLToPath(new URL('../../../../examples/python-analyst', import.meta.url));
const DATA_LAYOUT = fileURLToPath(new URL('../../../../docs/data-layout.md', import.meta.url));
const [s1, s2, odd] = ANALYST_SERIES as [string, string, string];
const FROM = '2026-01-01T00:40:00Z';
const TO = '2026-01-01T01:20:00Z';
const WINDOW = { from: '2026-01-01T00:55:00Z', to: '2026-01-01T01:05:00Z' };

const pairs = (params: Record<string, string>) => Object.entries(params);
const sensorOf = (series: string) => /sensor=(\w+)/.exec(series)![1]!;

interface Frame {
  columns: string[];
  dtypes: Record<string, string>;
  rows: unknown[][];
  arrow_schema?: Record<string, string>;
}

/** The doc's pipeline as mongosh would run it: its collection and its stages, dates as ISO text. */
async function docPipeline(name: string): Promise<{ collection: string; pipeline: unknown }> {
  const doc = await readFile(DATA_LAYOUT, 'utf8');
  const block = new RegExp(`^\`\`\`js pipeline:${name}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(doc);
  expect(block).not.toBeNull();
  const calls: { collection: string; pipeline: unknown }[] = [];
  const db = new Proxy(
    {},
    {
      get: (_t, collection: string) => ({
        aggregate: (pipeline: unknown) => calls.push({ collection, pipeline }),
      }),
    },
  );
  vm.runInNewContext(block![1]!, { db, ISODate: (text: string) => new Date(text) });
  expect(calls).toHaveLength(1);
  return JSON.parse(JSON.stringify(calls[0])) as { collection: string; pipeline: unknown };
}

/** Extended JSON from Python (`{"$date": …}`) as the doc's JSON has its dates: ISO text. */
function isoDates(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(isoDates);
  if (typeof value !== 'object' || value === null) return value;
  const date = (value as { $date?: string }).$date;
  if (date !== undefined) return new Date(date).toISOString();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isoDates(v)]));
}

const ANALYSTS_DOC = fileURLToPath(new URL('../../../../docs/analysts.md', import.meta.url));

describe('pandas, pyarrow, pymongo and DuckDB read what the API answers', () => {
  let stack: TestStack;
  let db: Db;
  let api: RunningApi;
  let python: string;

  /** Runs an example with `--name value` arguments (repeated for a list; alone for `true`). */
  async function run(script: string, args: Record<string, string | string[] | true>) {
    const argv = Object.entries(args).flatMap(([name, value]) =>
      value === true ? [`--${name}`] : [value].flat().flatMap((v) => [`--${name}`, v]),
    );
    const { code, stdout, stderr } = await runProcess(python, [join(EXAMPLES, script), ...argv], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TICKERTAPE_API: api.base,
        TICKERTAPE_TOKEN: TOKEN,
        MONGODB_URI: stack.env.MONGODB_URI,
        // No __pycache__ left in the checkout.
        PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    return stdout;
  }

  beforeAll(async () => {
    stack = await TestStack.open('api-python-analyst');
    db = testDatabase(stack);
    await writeAnalystData(db);
    api = await startTestApi(await storesOf(db), { reader: { now: () => ANALYST_NOW } });
    // A fresh machine installs the venv here (about 20 s from PyPI); later runs reuse it.
    const { stdout } = await promisify(execFile)('bash', [join(EXAMPLES, 'install.sh')], {
      timeout: 300_000,
    });
    python = stdout.trim();
  }, 360_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it('shows in docs/analysts.md only Python that is the text of an example script', async () => {
    const doc = await readFile(ANALYSTS_DOC, 'utf8');
    const blocks = [...doc.matchAll(/^```python\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const scripts = await Promise.all(
      ['pandas_csv.py', 'pandas_arrow.py', 'pymongo_pipeline.py', 'duckdb_export.py'].map((name) =>
        readFile(join(EXAMPLES, name), 'utf8'),
      ),
    );
    for (const block of blocks)
      expect(scripts.filter((text) => text.includes(block))).toHaveLength(1);
  });

  it('pandas reads the points CSV: the API’s values, time as datetime64 in UTC', async () => {
    const range = { field: 'speed', from: FROM, to: TO };
    const { body } = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', s1], ...pairs(range))}`,
    );
    const frame = JSON.parse(await run('pandas_csv.py', { series: s1, ...range })) as Frame;
    // CSV carries no types: pandas infers them (a column of whole numbers is int64).
    expect(frame.dtypes).toMatchObject({
      time: 'datetime64[us, UTC]',
      time_ms: 'int64',
      series: 'str',
      n: 'int64',
      final: 'bool',
    });
    expect(body.points.length).toBeGreaterThan(10);
    const lead = [s1, 'a1', 's1', 'speed'];
    const values = (p: PointsBody['points'][number]) => [
      p.n,
      p.sum,
      p.avg,
      p.min,
      p.max,
      p.open,
      p.close,
      p.variance,
      p.stddev,
      p.coverage.spread,
      p.final,
    ];
    expect(frame.rows).toEqual(body.points.map((p) => [p.t, p.t, ...lead, ...values(p)]));
  });

  it('pyarrow reads the window’s Arrow stream; pandas gets times as datetime64[ms, UTC]', async () => {
    const window = { metric: 'speed', field: 'speed', ...WINDOW };
    const { body } = await api.get<WindowBody>(`/api/v1/window${qs(...pairs(window))}`);
    const frame = JSON.parse(await run('pandas_arrow.py', window)) as Frame;
    expect(frame.arrow_schema).toMatchObject({
      time: 'string',
      time_ms: 'timestamp[ms, tz=UTC]',
      series: 'string',
      n: 'double',
      first_time: 'string',
      first_time_ms: 'timestamp[ms, tz=UTC]',
      final: 'bool',
    });
    expect(frame.dtypes).toMatchObject({ time_ms: 'datetime64[ms, UTC]', n: 'float64' });
    expect(frame.rows.map((row) => row[4])).toEqual([odd, s1, s2].sort());
    const span = [body.fromMs, body.toMs].flatMap((ms) => [new Date(ms).toISOString(), ms]);
    const tags = (series: string) =>
      series === odd ? ['2', 'x,"y"', null] : [null, 'a1', sensorOf(series)];
    const marks = ({ first, last }: WindowBody['rows'][number]) =>
      [first, last].flatMap((mark) =>
        mark ? [mark.v, new Date(mark.t).toISOString(), mark.t] : [null, null, null],
      );
    expect(frame.rows).toEqual(
      body.rows.map((row) => [
        ...span,
        ...[row.series, ...tags(row.series), 'speed'],
        ...[row.n, row.n === 0 ? null : row.sum, row.avg, row.min, row.max],
        ...[...marks(row), row.variance, row.stddev, row.coverage.spread, row.final],
      ]),
    );
  });

  // Two Python runs, each importing pandas and pymongo: seconds on a busy machine.
  it('pymongo runs the pipeline of data-layout.md; the n > 0 filters drop shells, the sums match', async () => {
    // The example's pipeline, given the doc's own arguments, is the doc's pipeline.
    const doc = await docPipeline('ten-minute-average');
    const [first, , , , , cut] = doc.pipeline as {
      $match: Record<string, { $in?: string[]; $gte?: string; $lt?: string }>;
    }[];
    const printed = await run('pymongo_pipeline.py', {
      metric: 'traffic',
      field: 'speed',
      sensor: first!.$match['tags.sensor']!.$in!,
      from: cut!.$match.at!.$gte!,
      to: cut!.$match.at!.$lt!,
      'print-pipeline': true,
    });
    expect(isoDates(JSON.parse(printed))).toEqual(doc);

    // On our buckets: s4 has only a shell in the window's hour, s1 and s2 padding after 01:20.
    const sensors = { metric: 'speed', field: 'speed', sensor: ['s1', 's2', 's4'], ...WINDOW };
    const frame = JSON.parse(
      await run('pymongo_pipeline.py', { database: db.databaseName, ...sensors }),
    ) as Frame;
    const { body } = await api.get<WindowBody>(
      `/api/v1/window${qs(['series', s1], ['series', s2], ['field', 'speed'], ...pairs(WINDOW))}`,
    );
    expect(frame.columns).toEqual(['sensor', 'n', 'avg']);
    expect(frame.rows).toEqual(body.rows.map((row) => [sensorOf(row.series), row.n, row.avg]));
    expect(body.rows.every((row) => row.n > 0)).toBe(true);
  }, 30_000);

  it('DuckDB rolls the exported CSV and Parquet up to the API’s hours', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tt-duckdb-'));
    try {
      const range = { series: s1, field: 'speed', from: FROM, to: TO };
      const hours = JSON.parse(await run('duckdb_export.py', { out, ...range })) as {
        csv: unknown[][];
        parquet: unknown[][];
      };
      const { body } = await api.get<PointsBody>(
        `/api/v1/points${qs(...pairs(range), ['level', 'hour'])}`,
      );
      const want = body.points.map((p) => [p.t, p.n, p.avg, p.min, p.max]);
      expect(want).toHaveLength(2);
      expect(hours.csv).toEqual(want);
      expect(hours.parquet).toEqual(want);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
