/**
 * `tickertape query …` on the real stack: ticks generated here are folded and written by the
 * real write path (foldBatch inside RollupWriter, one writer per level, as the workers do), then
 * every query command runs with --format json and csv, and each answer is compared with values
 * computed from the ticks themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, slotStart, type FoldInput } from '@tickertape/buckets';
import type {
  CandleResult,
  RangeResult,
  SeriesResult,
  StatusResult,
  WindowResult,
} from '@tickertape/query';
import { storesOf } from '@tickertape/store';
import { freePort, TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { parse } from 'csv-parse/sync';
import { runCli, tickertape, type CliRun } from '../support/cli.js';
import { testDatabase } from '@tickertape/store/testing';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const START = at('2026-11-19T09:50:00Z');
const END = START + 30 * MINUTE;
/** s3 is silent here: a gap, which must never read as zeros. */
const SILENT = { from: at('2026-11-19T10:05:00Z'), to: at('2026-11-19T10:10:00Z') };

interface Tick {
  series: string;
  ts: number;
  value: number;
  offset: number;
}

const SENSORS = [
  { sensor: 's1', road: 'I80' },
  { sensor: 's2', road: 'I80' },
  { sensor: 's3', road: 'I90' },
];
const SERIES = SENSORS.map((tags) => seriesKey('traffic', tags));
const [S1, S2, S3] = SERIES as [string, string, string];
const STOCK = seriesKey('stock.tick', { symbol: 'ACME' });

/**
 * Readings every 7-9 s per sensor (values in halves, so sums are exact), a second reading in
 * the same second now and then (a minute bucket keeps the last per second), and a stock price
 * every 5 s. Offsets in event-time order on one Kafka partition.
 */
function generate(): { ticks: Tick[]; inputs: FoldInput[] } {
  const raw: (Omit<Tick, 'offset'> & { metric: string; tags: Record<string, string> })[] = [];
  SENSORS.forEach((tags, i) => {
    let k = 0;
    for (let ts = START + 1000 * (i + 1) + 250; ts < END; ts += (7 + i) * 1000, k++) {
      if (i === 2 && ts >= SILENT.from && ts < SILENT.to) continue;
      const value = 40 + ((k * 13 + i * 7) % 31) + (k % 2) / 2;
      raw.push({ series: SERIES[i]!, metric: 'traffic', tags, ts, value });
      if (i === 0 && k % 10 === 0)
        raw.push({ series: SERIES[i]!, metric: 'traffic', tags, ts: ts + 300, value: value + 1 });
    }
  });
  for (let ts = START + 500, k = 0; ts < END; ts += 5000, k++)
    raw.push({
      series: STOCK,
      metric: 'stock.tick',
      tags: { symbol: 'ACME' },
      ts,
      value: 100 + ((k * 17) % 23) / 4,
    });
  raw.sort((a, b) => a.ts - b.ts);
  const ticks = raw.map((tick, offset) => ({ ...tick, offset }));
  return {
    ticks: ticks.map(({ series, ts, value, offset }) => ({ series, ts, value, offset })),
    inputs: ticks.map((tick) => ({
      seriesKey: tick.series,
      metric: tick.metric,
      tags: tick.tags,
      ts: tick.ts,
      fields: { [tick.metric === 'traffic' ? 'speed' : 'price']: tick.value },
      strings: {},
      kafkaPartition: 0,
      offset: tick.offset,
    })),
  };
}

const byTime = (a: Tick, b: Tick) => a.ts - b.ts || a.offset - b.offset;

/** What the rollups must say about some ticks, computed without them. */
function expected(ticks: readonly Tick[]) {
  const sorted = [...ticks].sort(byTime);
  const values = sorted.map((t) => t.value);
  const sum = values.reduce((total, v) => total + v, 0);
  return {
    n: values.length,
    sum,
    avg: sum / values.length,
    min: Math.min(...values),
    max: Math.max(...values),
    first: sorted[0]!,
    last: sorted[sorted.length - 1]!,
  };
}

/** Ticks of `series` in [from, to) grouped into `stepMs` intervals, in time order. */
function intervals(
  ticks: readonly Tick[],
  series: string,
  from: number,
  to: number,
  stepMs: number,
) {
  const groups = new Map<number, Tick[]>();
  for (const tick of ticks) {
    if (tick.series !== series || tick.ts < from || tick.ts >= to) continue;
    const t = Math.floor(tick.ts / stepMs) * stepMs;
    groups.set(t, [...(groups.get(t) ?? []), tick]);
  }
  return [...groups].sort(([a], [b]) => a - b).map(([t, group]) => ({ t, ...expected(group) }));
}

const inRange = (ticks: readonly Tick[], series: string, from: number, to: number) =>
  ticks.filter((t) => t.series === series && t.ts >= from && t.ts < to);

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Times in CSV cells, as the API writes them: always with milliseconds. */
const isoMs = (ms: number) => new Date(ms).toISOString();

/** The arguments of a one-series read: `points --series KEY --field F --from … --to …`. */
const oneSeries = (
  command: string,
  series: string,
  field: string,
  from: number | string,
  to: number | string,
  ...extra: string[]
) => [
  command,
  '--series',
  series,
  '--field',
  field,
  '--from',
  typeof from === 'number' ? iso(from) : from,
  '--to',
  typeof to === 'number' ? iso(to) : to,
  ...extra,
];

function csvRecords(run: CliRun): Record<string, string>[] {
  return parse<Record<string, string>>(run.stdout, { columns: true });
}

/** A CSV cell as the value JSON gives: empty is missing (null), never 0. */
const cellValue = (cell: string | undefined) =>
  cell === undefined || cell === ''
    ? null
    : cell === 'true' || cell === 'false'
      ? cell === 'true'
      : Number.isNaN(Number(cell))
        ? cell
        : Number(cell);

/** These CSV columns of every record, as JSON values, to compare with the JSON answer. */
const columns = (records: readonly Record<string, string>[], names: readonly string[]) =>
  records.map((record) => names.map((name) => cellValue(record[name])));

describe('tickertape query', () => {
  let stack: TestStack;
  let database: string;
  let ticks: Tick[];

  beforeAll(async () => {
    stack = await TestStack.open('cli-query');
    const db = testDatabase(stack);
    database = db.databaseName;
    const generated = generate();
    ticks = generated.ticks;
    for (const level of LEVELS)
      await (await storesOf(db)).rollups.writer(level).apply(generated.inputs);
  }, 60_000);
  afterAll(() => stack.close());

  /** Runs `tickertape query …` on the test database, in-process, clock at `now` when given. */
  const query = (args: string[], now?: number) =>
    runCli(
      stack,
      ['query', ...args, '--database', database],
      '',
      now === undefined ? undefined : () => now,
    );

  async function json<T>(args: string[], now?: number): Promise<T> {
    const run = await query([...args, '--format', 'json'], now);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  }

  async function csv(args: string[], now?: number) {
    const run = await query([...args, '--format', 'csv'], now);
    expect(run.code).toBe(0);
    return { records: csvRecords(run), header: run.stdout.split('\r\n')[0], stderr: run.stderr };
  }

  describe('series', () => {
    const args = [
      'series',
      '--metric',
      'traffic',
      '--from',
      '2026-11-19T09:00:00Z',
      '--to',
      '2026-11-19T11:00:00Z',
    ];

    it('lists the series of a metric with their fields, in key order', async () => {
      const result = await json<SeriesResult>(args);
      expect(result.series.map((s) => s.series)).toEqual([...SERIES].sort());
      expect(result.series[0]).toMatchObject({
        tags: { sensor: 's1', road: 'I80' },
        fields: ['speed'],
      });
      expect(result).toMatchObject({ level: 'day', examined: 3, truncated: false });

      const { records, header, stderr } = await csv(args);
      expect(header).toBe('series,metric,road,sensor,fields,last_slot,last_slot_ms');
      expect(records.map((r) => r.series)).toEqual(result.series.map((s) => s.series));
      expect(records[0]).toEqual({
        series: S1,
        metric: 'traffic',
        road: 'I80',
        sensor: 's1',
        fields: 'speed',
        last_slot: '2026-11-19T00:00:00.000Z',
        last_slot_ms: String(at('2026-11-19T00:00:00Z')),
      });
      expect(stderr).toContain('examined 3 documents');
    });

    it('filters by tag and says when --limit cut the list', async () => {
      const result = await json<SeriesResult>([...args, '--tag', 'road=I80', '--limit', '1']);
      expect(result.series.map((s) => s.series)).toEqual([S1]);
      expect(result.truncated).toBe(true);
      const table = await query([...args, '--tag', 'road=I80', '--limit', '1']);
      expect(table.stdout).toContain('more series match: raise --limit');
      expect(table.stdout).toMatch(/^examined 2 documents$/m);
    });
  });

  describe('window', () => {
    const from = at('2026-11-19T09:55:00Z');
    const to = at('2026-11-19T10:10:00Z');
    const window = ['--from', iso(from), '--to', iso(to), '--field', 'speed'];

    type WindowJson = WindowResult & {
      selected?: { metric: string; series: number; truncated: boolean };
    };

    function expectRow(
      row: WindowJson['rows'][number],
      series: string,
      fromMs: number,
      toMs: number,
    ) {
      const want = expected(inRange(ticks, series, fromMs, toMs));
      expect(row).toMatchObject({
        series,
        n: want.n,
        sum: want.sum,
        min: want.min,
        max: want.max,
        first: { t: want.first.ts, v: want.first.value },
        last: { t: want.last.ts, v: want.last.value },
      });
      expect(row.avg).toBeCloseTo(want.avg, 9);
    }

    it('aggregates the named series over the window, from one part per bucket level', async () => {
      const result = await json<WindowJson>(['window', '--series', S1, S2, ...window]);
      expect(result).toMatchObject({ fromMs: from, toMs: to });
      expectRow(result.rows[0]!, S1, from, to);
      expectRow(result.rows[1]!, S2, from, to);
      // 09:55-10:00 from hour 09's minutes, 10:00-10:10 from hour 10's: two documents a series.
      expect(result.examined).toBe(4);

      const { records, stderr } = await csv(['window', '--series', S1, S2, ...window]);
      expect(
        columns(records, ['series', 'n', 'sum', 'avg', 'min', 'max', 'first', 'last']),
      ).toEqual(
        result.rows.map((r) => [r.series, r.n, r.sum, r.avg, r.min, r.max, r.first?.v, r.last?.v]),
      );
      expect(records[0]!.first_time).toBe(isoMs(result.rows[0]!.first!.t));
      expect(records[0]!.first_time_ms).toBe(String(result.rows[0]!.first!.t));
      expect(stderr).toMatch(/^examined 4 documents$/m);
    });

    it('finds the series by metric and tag in the same buckets it sums', async () => {
      const result = await json<WindowJson>([
        'window',
        '--metric',
        'traffic',
        '--tag',
        'road=I80',
        '--limit',
        '50',
        ...window,
      ]);
      expect(result.rows.map((r) => r.series)).toEqual([S1, S2]);
      expectRow(result.rows[1]!, S2, from, to);
      expect(result.selected).toMatchObject({ metric: 'traffic', series: 2, truncated: false });
      // Two hour buckets a series, as the named form reads: no separate discovery scan.
      expect(result.examined).toBe(4);
    });

    it('leaves a series without data in the window empty, never zero', async () => {
      const silent = oneSeries('window', S3, 'speed', SILENT.from, SILENT.to);
      const result = await json<WindowJson>(silent);
      expect(result.rows).toEqual([
        expect.objectContaining({
          series: S3,
          n: 0,
          avg: null,
          min: null,
          max: null,
          first: null,
          last: null,
        }),
      ]);
      const { records } = await csv(silent);
      expect(records[0]).toMatchObject({
        n: '0',
        sum: '',
        avg: '',
        min: '',
        max: '',
        first: '',
        last: '',
      });
      const table = await query(silent);
      expect(table.stdout).toMatch(new RegExp(`^${S3.replace(/[|]/g, '\\|')}\\s+0\\s+no$`, 'm'));
      expect(table.stdout).toContain('1 of 1 series without data in the window: empty cells');
    });

    it('reads --last 10m from the clock: the last ten whole minutes', async () => {
      const now = at('2026-11-19T10:15:30Z');
      const result = await json<WindowJson>(
        ['window', '--metric', 'traffic', '--field', 'speed', '--last', '10m', '--limit', '50'],
        now,
      );
      expect(result).toMatchObject({
        fromMs: at('2026-11-19T10:06:00Z'),
        toMs: at('2026-11-19T10:16:00Z'),
      });
      result.rows.forEach((row, i) => expectRow(row, [S1, S2, S3][i]!, result.fromMs, result.toMs));
    });
  });

  describe('points', () => {
    const expectPoints = (points: RangeResult['points'], want: ReturnType<typeof intervals>) => {
      expect(points.map((p) => p.t)).toEqual(want.map((w) => w.t));
      points.forEach((point, i) => {
        const w = want[i]!;
        expect(point).toMatchObject({
          n: w.n,
          sum: w.sum,
          min: w.min,
          max: w.max,
          open: w.first.value,
          close: w.last.value,
        });
        expect(point.avg).toBeCloseTo(w.avg, 9);
      });
    };

    it('reads minute buckets whole with --level minute, and reports the gap as a gap', async () => {
      const from = at('2026-11-19T10:00:00Z');
      const to = at('2026-11-19T10:15:00Z');
      const args = oneSeries('points', S3, 'speed', from, to, '--level', 'minute');
      const result = await json<RangeResult>(args);
      expect(result.resolution).toEqual({
        stepMs: MINUTE,
        source: { level: 'minute', detail: 'slot' },
      });
      expectPoints(result.points, intervals(ticks, S3, from, to, MINUTE));
      expect(result.gaps).toEqual([SILENT]);
      expect(result.examined).toBe(10);

      const { records, header, stderr } = await csv(args);
      expect(header).toBe(
        'time,time_ms,series,road,sensor,field,n,sum,avg,min,max,first,last,' +
          'variance,stddev,coverage_spread,final',
      );
      expect(columns(records, ['time', 'n', 'sum', 'avg', 'min', 'max', 'first', 'last'])).toEqual(
        result.points.map((p) => [isoMs(p.t), p.n, p.sum, p.avg, p.min, p.max, p.open, p.close]),
      );
      expect(stderr).toContain('1 gap (no data, not zero) over 5m');
      expect(stderr).toMatch(/^examined 10 documents$/m);

      const table = await query(args);
      expect(table.stdout).toMatch(
        /^2026-11-19T10:05:00Z\s+no data until 2026-11-19T10:10:00Z \(5m\)$/m,
      );
    });

    it('picks the width from --max-points: 5-minute points from the minutes of hour buckets', async () => {
      const args = oneSeries('points', S1, 'speed', START, END, '--max-points', '10');
      const result = await json<RangeResult>(args);
      expect(result.resolution).toEqual({
        stepMs: 5 * MINUTE,
        source: { level: 'hour', detail: 'sub' },
      });
      expectPoints(result.points, intervals(ticks, S1, START, END, 5 * MINUTE));
      expect(result.gaps).toEqual([]);
      expect(result.examined).toBe(2);
    });

    it('reads the count, sum and mean of each second with --detail sub', async () => {
      const from = at('2026-11-19T09:50:00Z');
      const to = from + MINUTE;
      const args = oneSeries(
        'points',
        S1,
        'speed',
        from,
        to,
        '--level',
        'minute',
        '--detail',
        'sub',
      );
      const result = await json<RangeResult>(args);
      const perSecond = intervals(ticks, S1, from, to, 1000).map((w) => ({
        t: w.t,
        n: w.n,
        avg: w.sum / w.n,
      }));
      expect(perSecond.length).toBeGreaterThan(5);
      expect(result.points.map((p) => ({ t: p.t, n: p.n, avg: p.avg }))).toEqual(perSecond);
      expect(result.points.every((p) => p.min === p.avg && p.max === p.avg)).toBe(true);
      const { records } = await csv(args);
      expect(records.map((r) => Number(r.n))).toEqual(perSecond.map((p) => p.n));
    });
  });

  describe('candles', () => {
    it('gives open/high/low/close and volume at the automatic width, relative times from the clock', async () => {
      const args = oneSeries('candles', STOCK, 'price', '-30m', 'now', '--max-points', '6');
      const result = await json<CandleResult>(args, END);
      expect(result).toMatchObject({
        fromMs: START,
        toMs: END,
        resolution: { stepMs: 5 * MINUTE },
      });
      const want = intervals(ticks, STOCK, START, END, 5 * MINUTE);
      expect(result.candles).toEqual(
        want.map((w) =>
          expect.objectContaining({
            t: w.t,
            open: w.first.value,
            high: w.max,
            low: w.min,
            close: w.last.value,
            volume: w.n,
          }),
        ),
      );
      expect(result.examined).toBe(2);

      const { records, header, stderr } = await csv(args, END);
      expect(header).toBe(
        'time,time_ms,series,symbol,field,open,high,low,close,volume,' +
          'variance,stddev,coverage_spread,final',
      );
      expect(columns(records, ['time', 'open', 'high', 'low', 'close', 'volume'])).toEqual(
        result.candles.map((c) => [isoMs(c.t), c.open, c.high, c.low, c.close, c.volume]),
      );
      expect(stderr).toMatch(/^examined 2 documents$/m);
    });
  });

  describe('status', () => {
    it('gives the newest bucket and tick of the series at every level', async () => {
      const last = ticks
        .filter((t) => t.series === S2)
        .sort(byTime)
        .at(-1)!;
      const result = await json<StatusResult>(['status', '--series', S2]);
      expect(result.levels).toEqual(
        LEVELS.map((level) => ({
          level,
          latestSlotMs: slotStart(level, last.ts),
          freshnessMs: last.ts,
          latestFinal: false,
          finalBefore: null,
        })),
      );
      expect(result.examined).toBe(3);
      const { records } = await csv(['status', '--series', S2]);
      expect(records[0]).toEqual({
        level: 'minute',
        series: S2,
        road: 'I80',
        sensor: 's2',
        latest_slot: isoMs(slotStart('minute', last.ts)),
        latest_slot_ms: String(slotStart('minute', last.ts)),
        newest_tick: isoMs(last.ts),
        newest_tick_ms: String(last.ts),
        latest_final: 'false',
        final_before: '',
        final_before_ms: '',
      });
    });
  });

  describe('summary', () => {
    const escape = (text: string) => text.replace(/[|.]/g, '\\$&');
    const round = (value: number) => Math.round(value * 100) / 100;

    it('reads its averages and candles through the query library, with their cost', async () => {
      const now = at('2026-11-19T10:15:30Z');
      const run = await runCli(
        stack,
        ['summary', '--database', database, '--workers', '', '--limit', '2'],
        '',
        () => now,
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain(
        'average speed over the last 10 minutes (2026-11-19T10:06:00Z to 2026-11-19T10:16:00Z)',
      );
      for (const series of [S1, S2]) {
        const want = expected(
          inRange(ticks, series, at('2026-11-19T10:06:00Z'), at('2026-11-19T10:16:00Z')),
        );
        expect(run.stdout).toMatch(
          new RegExp(`^${escape(series)}\\s+${escape(String(round(want.avg)))}\\s+${want.n}$`, 'm'),
        );
      }
      expect(run.stdout).not.toContain(S3);
      // One hour bucket each for the first two traffic series, and the third's, which tells
      // there are more than the limit: the series are found in the buckets summed.
      expect(run.stdout).toContain(
        'examined 3 documents (1 bucket part per series for the window, the series found in them)',
      );

      const hour = expected(
        inRange(ticks, STOCK, at('2026-11-19T10:00:00Z'), at('2026-11-19T11:00:00Z')),
      );
      expect(run.stdout).toContain(
        'price candles for the hour from 2026-11-19T10:00:00Z (1h points from the hours of day buckets)',
      );
      const cells = [hour.first.value, hour.max, hour.min, hour.last.value].map((v) =>
        escape(String(round(v))),
      );
      expect(run.stdout).toMatch(
        new RegExp(`^${escape(STOCK)}\\s+${cells.join('\\s+')}\\s+${hour.n}$`, 'm'),
      );
      expect(run.stdout).toMatch(/examined 2 documents \(1 to find the series\)\n$/);
    });

    it('names a worker that does not answer and still reports the rest (after the demo)', async () => {
      // A free port: nothing listens, the connection is refused at once, as for the demo's
      // stopped workers.
      const port = await freePort();
      const run = await runCli(stack, [
        'summary',
        '--database',
        database,
        '--workers',
        `http://127.0.0.1:${port}`,
      ]);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(
        new RegExp(
          `^  http://127\\.0\\.0\\.1:${port}: not answering \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); ` +
            'its figures are in its /metrics while it runs$',
          'm',
        ),
      );
      expect(run.stdout).not.toContain('fetch failed');
      expect(run.stdout).toContain('buckets in the database');
      expect(run.stdout).toContain('price candles for the hour');
    });
  });

  describe('unknown names (issue 38)', () => {
    const HOUR = ['2026-11-19T09:50:00Z', '2026-11-19T10:20:00Z'] as const;

    it.each([
      [
        'a misspelt field',
        oneSeries('points', S1, 'sped', ...HOUR),
        'tickertape: QUERY_UNKNOWN_NAME: unknown field "sped"; did you mean "speed"?\n',
      ],
      [
        'a misspelt series key',
        oneSeries('candles', 'trafic|road=I80,sensor=s1', 'speed', ...HOUR),
        `tickertape: QUERY_UNKNOWN_NAME: unknown series "trafic|road=I80,sensor=s1"; did you mean "${S1}"?\n`,
      ],
      [
        'a misspelt field in a window',
        ['window', '--series', S1, S2, '--field', 'speeed', '--from', HOUR[0], '--to', HOUR[1]],
        'tickertape: QUERY_UNKNOWN_NAME: unknown field "speeed"; did you mean "speed"?\n',
      ],
      [
        'a misspelt metric in a window by metric',
        ['window', '--metric', 'trafic', '--field', 'speed', '--from', HOUR[0], '--to', HOUR[1]],
        'tickertape: QUERY_UNKNOWN_NAME: unknown metric "trafic"; did you mean "traffic"?\n',
      ],
      [
        'a misspelt tag in a window by metric',
        [
          'window',
          '--metric',
          'traffic',
          '--tag',
          'raod=I80',
          '--field',
          'speed',
          '--from',
          HOUR[0],
          '--to',
          HOUR[1],
        ],
        'tickertape: QUERY_UNKNOWN_NAME: unknown tag "raod"; did you mean "road"?\n',
      ],
    ])('exits 4 naming %s with the nearest known name', async (_name, args, message) => {
      const run = await query(args);
      expect(run).toMatchObject({ code: 4, stdout: '', stderr: message });
    });

    it('answers a known series quiet in the range with its gap, exit 0', async () => {
      const quiet = await json<RangeResult>(
        oneSeries('points', S1, 'speed', '2026-11-18T09:00:00Z', '2026-11-18T10:00:00Z'),
      );
      expect(quiet.points).toEqual([]);
      expect(quiet.gaps).toEqual([
        { from: at('2026-11-18T09:00:00Z'), to: at('2026-11-18T10:00:00Z') },
      ]);
    });
  });

  describe('refusals', () => {
    it('exits 2 with one line for a bad range, in-process and as the real binary', async () => {
      const args = oneSeries('points', S1, 'speed', '2026-11-19T11:00:00Z', '2026-11-19T10:00:00Z');
      const run = await query(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^tickertape: QUERY_INVALID_RANGE: from \(2026-11-19T11:00:00.000Z\) must be before to \(.*\)\n$/,
      );

      const spawned = await tickertape(stack, ['query', ...args, '--database', database]);
      expect(spawned.code).toBe(2);
      expect(spawned.stderr).toMatch(/^tickertape: QUERY_INVALID_RANGE: .*\n$/);
    }, 60_000);

    it.each([
      [
        'an unreadable time',
        ['points', '--series', S1, '--field', 'speed', '--from', 'last tuesday'],
        /^tickertape: QUERY_INVALID_TIME: --from: "last tuesday" is not a time; give RFC 3339/,
      ],
      [
        'an unknown level',
        ['points', '--series', S1, '--field', 'speed', '--level', 'week'],
        /^tickertape: QUERY_UNKNOWN_LEVEL: unknown level "week"/,
      ],
      [
        'too many points',
        oneSeries('points', S1, 'speed', '2026-01-01', '2026-11-19', '--level', 'minute'),
        /^tickertape: QUERY_TOO_MANY_POINTS: /,
      ],
      [
        '501 series',
        [
          'window',
          '--series',
          ...Array.from({ length: 501 }, (_, i) => `traffic|sensor=x${i}`),
          '--field',
          'speed',
          '--last',
          '10m',
        ],
        /^tickertape: QUERY_TOO_MANY_SERIES: 501 series requested; the limit is 500\n$/,
      ],
      [
        'a discovery over budget',
        ['series', '--from', '2000-01-01', '--to', '2026-01-01'],
        /^tickertape: QUERY_READ_BUDGET_EXCEEDED: /,
      ],
      [
        'a malformed series key',
        ['status', '--series', 'traffic|bad'],
        /^tickertape: QUERY_INVALID_SERIES: /,
      ],
    ])('exits 2 for %s', async (_name, args, message) => {
      const run = await query(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  });
});
