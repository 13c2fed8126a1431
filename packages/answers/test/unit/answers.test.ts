import { describe, expect, it } from '@jest/globals';
import { tableFromIPC, type StructRowProxy } from 'apache-arrow';
import {
  ENCODERS,
  markdownTable,
  candlesTable,
  pointsTable,
  rawTable,
  seriesListTable,
  statusTable,
  tableToArrowStream,
  tableToCsv,
  windowTable,
  type PointsRead,
  type RawRead,
  type SeriesListRead,
  type Table,
  type WindowRead,
} from '../../src/index.js';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const ISO0 = '2026-01-01T00:00:00.000Z';
const T1 = T0 + 60_000;
const ISO1 = '2026-01-01T00:01:00.000Z';

describe('tableToCsv', () => {
  const table = (rows: Table['rows']): Table => ({
    columns: [
      { name: 'label', kind: 'text' },
      { name: 'value', kind: 'number' },
      { name: 'final', kind: 'bool' },
    ],
    rows,
  });
  it.each<[string, Table['rows'][number], string]>([
    ['plain cells', ['s1', 1.5, true], 's1,1.5,true'],
    ['a comma is quoted', ['a,b', 2, false], '"a,b",2,false'],
    ['a quote is doubled and quoted', ['say "hi"', 2, false], '"say ""hi""",2,false'],
    ['a line break is quoted', ['two\nlines', 2, false], '"two\nlines",2,false'],
    ['a carriage return is quoted', ['cr\rhere', 2, false], '"cr\rhere",2,false'],
    ['edge spaces are quoted', [' padded ', 2, false], '" padded ",2,false'],
    ['null is an empty field, never 0', [null, null, null], ',,'],
    ['numbers as JavaScript prints them', ['x', 0.1 + 0.2, false], 'x,0.30000000000000004,false'],
    ['large and small numbers', ['x', 1e21, true], 'x,1e+21,true'],
    [
      'a series key with its separators',
      ['speed|road=a\\,1,sensor=s1', 3, true],
      '"speed|road=a\\,1,sensor=s1",3,true',
    ],
  ])('%s', (_case, row, line) => {
    expect(tableToCsv(table([row]))).toBe(`label,value,final\r\n${line}\r\n`);
  });

  it('writes the header alone when there are no rows', () => {
    expect(tableToCsv(table([]))).toBe('label,value,final\r\n');
  });

  // OWASP's CSV injection: a text cell a spreadsheet would execute is prefixed with ' and quoted.
  it.each<[string, string]>([
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['+1+2', '"\'+1+2"'],
    ['-2+3', '"\'-2+3"'],
    ['@SUM(A1)', '"\'@SUM(A1)"'],
    ['\t=1', '"\'\t=1"'],
    ['\r=1', '"\'\r=1"'],
    ['\uFF1D1+1', '"\'\uFF1D1+1"'],
  ])('escapes the formula text %j', (text, cell) => {
    expect(tableToCsv(table([[text, -1.5, true]]))).toBe(
      `label,value,final\r\n${cell},-1.5,true\r\n`,
    );
  });

  it('leaves numbers, inner formula characters and a header clear of formulas as they are', () => {
    expect(
      tableToCsv(
        table([
          ['a=b', -2, false],
          ['a-b', -Infinity, false],
        ]),
      ),
    ).toBe('label,value,final\r\na=b,-2,false\r\na-b,-Infinity,false\r\n');
  });

  it('escapes a header named by data (a tag) like any text cell', () => {
    const tagged: Table = { columns: [{ name: '=cmd', kind: 'text' }], rows: [['x']] };
    expect(tableToCsv(tagged)).toBe('"\'=cmd"\r\nx\r\n');
  });
});

describe('tableToArrowStream', () => {
  it('types times as UTC millisecond timestamps, numbers as doubles, nulls as nulls', () => {
    const stream = tableToArrowStream({
      columns: [
        { name: 'time', kind: 'text' },
        { name: 'time_ms', kind: 'time' },
        { name: 'n', kind: 'number' },
        { name: 'final', kind: 'bool' },
      ],
      rows: [
        [ISO0, T0, 3, true],
        [ISO0, T0 + 1000, null, false],
      ],
    });
    expect(Buffer.isBuffer(stream)).toBe(true);
    const read = tableFromIPC(stream);
    expect(read.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      'time:Utf8',
      'time_ms:Timestamp<MILLISECOND, UTC>',
      'n:Float64',
      'final:Bool',
    ]);
    expect((read.toArray() as StructRowProxy[]).map((row) => ({ ...row.toJSON() }))).toEqual([
      { time: ISO0, time_ms: T0, n: 3, final: true },
      { time: ISO0, time_ms: T0 + 1000, n: null, final: false },
    ]);
  });

  it('gives the schema of an empty answer', () => {
    const read = tableFromIPC(
      tableToArrowStream({ columns: [{ name: 'n', kind: 'number' }], rows: [] }),
    );
    expect(read.numRows).toBe(0);
    expect(read.schema.fields.map((f) => f.name)).toEqual(['n']);
  });
});

/** The stats of a row whose parts all carried Σx². */
const spread = (variance: number, n: number) => ({
  variance,
  stddev: Math.sqrt(variance),
  coverage: { spread: n },
});
const NO_STATS = { variance: null, stddev: null, coverage: { spread: 0 } };

/** The column names as a CSV header line would list them. */
const names = (table: Table) => table.columns.map((c) => c.name).join(',');

describe('the tables of the read routes', () => {
  const head = {
    fromMs: T0,
    toMs: T0 + 120_000,
    resolution: { stepMs: 60_000, source: { level: 'hour' as const, detail: 'sub' as const } },
    gaps: [],
    examined: 1,
  };

  it('points: time in both spellings, the series, its tags as columns, first/last as open/close', () => {
    const body: PointsRead = {
      ...head,
      series: 'speed|road=a1,sensor=s1',
      field: 'speed',
      points: [
        {
          t: T0,
          n: 2,
          sum: 10,
          min: 4,
          max: 6,
          open: 6,
          close: 4,
          avg: 5,
          ...spread(1, 2),
          final: true,
        },
        {
          t: T1,
          n: null,
          sum: null,
          min: 7,
          max: 7,
          open: 7,
          close: 7,
          avg: 7,
          ...NO_STATS,
          final: false,
        },
      ],
    };
    const table = pointsTable(body);
    expect(names(table)).toBe(
      'time,time_ms,series,road,sensor,field,n,sum,avg,min,max,first,last,' +
        'variance,stddev,coverage_spread,final',
    );
    const lead = [body.series, 'a1', 's1', 'speed'];
    expect(table.rows).toEqual([
      [ISO0, T0, ...lead, 2, 10, 5, 4, 6, 6, 4, 1, 1, 2, true],
      [ISO1, T1, ...lead, null, null, 7, 7, 7, 7, 7, null, null, 0, false],
    ]);
  });

  it('candles: open, high, low, close, volume', () => {
    const table = candlesTable({
      ...head,
      series: 'price|symbol=ACME',
      field: 'price',
      candles: [
        {
          t: T0,
          open: 1,
          high: 3,
          low: 0.5,
          close: 2,
          volume: 9,
          variance: 0.25,
          stddev: 0.5,
          quantiles: { 'q0.5': 1.5, 'q0.99': 2.9 },
          weighted: { by: 'volume', avg: 1.75 },
          coverage: { spread: 9, sketch: 8, weighted: 9 },
          final: true,
        },
      ],
    });
    expect(names(table)).toBe(
      'time,time_ms,series,symbol,field,open,high,low,close,volume,variance,stddev,' +
        'q0.5,q0.99,wavg_volume,coverage_spread,coverage_sketch,coverage_weighted,final',
    );
    expect(table.rows).toEqual([
      [
        ...[ISO0, T0, 'price|symbol=ACME', 'ACME', 'price', 1, 3, 0.5, 2, 9],
        ...[0.25, 0.5, 1.5, 2.9, 1.75, 9, 8, 9],
        true,
      ],
    ]);
  });

  it('window: the union of tag names, empty where a series lacks one; a tag named like a column is prefixed; no sum without readings', () => {
    const row = {
      n: 0,
      sum: 0,
      avg: null,
      min: null,
      max: null,
      first: null,
      last: null,
      ...NO_STATS,
      final: false,
    };
    const body: WindowRead = {
      field: 'speed',
      fromMs: T0,
      toMs: T0 + 600_000,
      rows: [
        { ...row, series: 'speed|n=1,sensor=s1' },
        {
          ...row,
          series: 'speed|dir=E',
          n: 2,
          sum: 9,
          avg: 4.5,
          min: 4,
          max: 5,
          first: { t: T0 + 5, v: 4 },
          last: { t: T0 + 9, v: 5 },
          ...spread(0.25, 2),
          final: true,
        },
      ],
    };
    const table = windowTable(body);
    expect(names(table)).toBe(
      'time,time_ms,end,end_ms,series,dir,tag_n,sensor,field,n,sum,avg,min,max,' +
        'first,first_time,first_time_ms,last,last_time,last_time_ms,variance,stddev,coverage_spread,final',
    );
    const span = [ISO0, T0, '2026-01-01T00:10:00.000Z', T0 + 600_000];
    const empty = Array<null>(10).fill(null);
    const east = [...span, 'speed|dir=E', 'E', null, null, 'speed'];
    const [first, last] = [T0 + 5, T0 + 9];
    expect(table.rows).toEqual([
      [...span, 'speed|n=1,sensor=s1', null, '1', 's1', 'speed', 0, ...empty, null, null, 0, false],
      [
        ...east,
        2,
        9,
        4.5,
        4,
        5,
        4,
        new Date(first).toISOString(),
        first,
        5,
        new Date(last).toISOString(),
        last,
        0.25,
        0.5,
        2,
        true,
      ],
    ]);
    expect(tableToCsv(table).split('\r\n')[1]).toBe(
      `${ISO0},${T0},2026-01-01T00:10:00.000Z,${T0 + 600_000},"speed|n=1,sensor=s1",,1,s1,speed,0,,,,,,,,,,,,,0,false`,
    );
  });

  it('raw: the neighbours with their position, a column per field, empty where a tick lacks it', () => {
    const body: RawRead = {
      series: 'traffic|sensor=s1',
      before: { t: T0 - 10, v: { speed: 40 } },
      points: [
        { t: T0, v: { speed: 41, count: 3 } },
        { t: T0 + 10, v: { sensor: 1 } },
      ],
      after: null,
    };
    const table = rawTable(body);
    expect(names(table)).toBe('time,time_ms,series,sensor,position,count,field_sensor,speed');
    expect(table.rows.map((r) => r.slice(3))).toEqual([
      ['s1', 'before', null, null, 40],
      ['s1', 'in', 3, null, 41],
      ['s1', 'in', null, 1, null],
    ]);
    const asked = rawTable({ ...body, points: [], before: null }, 'speed');
    expect(names(asked)).toBe('time,time_ms,series,sensor,position,speed');
    expect(asked.rows).toEqual([]);
  });

  it('series: metric, tags as columns, fields and the newest bucket', () => {
    const body: SeriesListRead = {
      series: [
        { series: 'load', metric: 'load', tags: {}, fields: ['value'], lastSlotMs: T0 },
        {
          series: 'traffic|metric=x,site=n',
          metric: 'traffic',
          tags: { metric: 'x', site: 'n' },
          fields: ['ratio', 'value'],
          lastSlotMs: T0,
        },
      ],
    };
    const table = seriesListTable(body);
    expect(names(table)).toBe('series,metric,tag_metric,site,fields,last_slot,last_slot_ms');
    expect(table.rows).toEqual([
      ['load', 'load', null, null, 'value', ISO0, T0],
      ['traffic|metric=x,site=n', 'traffic', 'x', 'n', 'ratio,value', ISO0, T0],
    ]);
  });

  it('status: a row per level, its instants in both spellings, empty where the level has none', () => {
    const table = statusTable({
      series: 'x|k=v',
      levels: [
        {
          level: 'minute',
          latestSlotMs: T0,
          freshnessMs: T0 + 1500,
          latestFinal: true,
          finalBefore: T1,
        },
        {
          level: 'hour',
          latestSlotMs: null,
          freshnessMs: null,
          latestFinal: false,
          finalBefore: null,
        },
      ],
    });
    expect(names(table)).toBe(
      'level,series,k,latest_slot,latest_slot_ms,newest_tick,newest_tick_ms,latest_final,final_before,final_before_ms',
    );
    expect(table.rows).toEqual([
      ['minute', 'x|k=v', 'v', ISO0, T0, '2026-01-01T00:00:01.500Z', T0 + 1500, true, ISO1, T1],
      ['hour', 'x|k=v', 'v', null, null, null, null, null, null, null],
    ]);
  });
});

describe('stats columns', () => {
  it('a column per quantile and per weight field; empty where a row lacks one, never 0', () => {
    const table = windowTable({
      field: 'price',
      fromMs: T0,
      toMs: T1,
      rows: [
        {
          series: 'stock.tick|symbol=A',
          n: 4,
          sum: 40,
          avg: 10,
          min: 8,
          max: 12,
          first: { t: T0, v: 8 },
          last: { t: T0 + 1, v: 12 },
          variance: 2,
          stddev: Math.SQRT2,
          quantiles: { 'q0.85': 11.9 },
          weighted: { by: 'volume', avg: 10.5 },
          coverage: { spread: 4, sketch: 4, weighted: 3 },
          final: true,
        },
        {
          series: 'fx.tick|pair=EURUSD',
          n: 2,
          sum: 2.2,
          avg: 1.1,
          min: 1,
          max: 1.2,
          first: { t: T0, v: 1 },
          last: { t: T0 + 1, v: 1.2 },
          variance: null,
          stddev: null,
          quantiles: { 'q0.85': null },
          weighted: { by: 'notional', avg: 1.15 },
          coverage: { spread: 0, sketch: 0, weighted: 2 },
          final: true,
        },
      ],
    });
    const stats = table.columns.map((c) => c.name).slice(-9);
    expect(stats).toEqual([
      'variance',
      'stddev',
      'q0.85',
      'wavg_volume',
      'wavg_notional',
      'coverage_spread',
      'coverage_sketch',
      'coverage_weighted',
      'final',
    ]);
    expect(table.rows.map((row) => row.slice(-9))).toEqual([
      [2, Math.SQRT2, 11.9, 10.5, null, 4, 4, 3, true],
      [null, null, null, null, 1.15, 0, 0, 2, true],
    ]);
    const arrow = tableFromIPC(tableToArrowStream(table));
    expect(String(arrow.schema.fields.find((f) => f.name === 'q0.85')?.type)).toBe('Float64');
    expect(tableToCsv(table).split('\r\n')[0]).toContain(
      'variance,stddev,q0.85,wavg_volume,wavg_notional,coverage_spread,coverage_sketch,coverage_weighted,final',
    );
  });
});

describe('ENCODERS', () => {
  const answer = {
    json: () => ({ rows: [{ n: 1 }] }),
    table: (): Table => ({ columns: [{ name: 'n', kind: 'number' }], rows: [[1]] }),
  };

  it('one encoder per format: JSON of the value, CSV and Arrow of the table', () => {
    expect(ENCODERS.json.encode(answer)).toBe('{"rows":[{"n":1}]}');
    expect(ENCODERS.csv.encode(answer)).toBe('n\r\n1\r\n');
    const arrow = tableFromIPC(ENCODERS.arrow.encode(answer));
    expect(arrow.numRows).toBe(1);
    expect(arrow.schema.fields.map((f) => f.name)).toEqual(['n']);
  });

  it('builds only what its format needs: JSON never makes the table', () => {
    const tableless = {
      json: answer.json,
      table: (): Table => {
        throw new Error('made a table');
      },
    };
    expect(() => ENCODERS.json.encode(tableless)).not.toThrow();
  });

  it.each([
    ['json', 'application/json', 'application/json; charset=utf-8'],
    ['csv', 'text/csv', 'text/csv; charset=utf-8; header=present'],
    ['arrow', 'application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.stream'],
  ] as const)('%s is asked for as %s and answered as %s', (format, media, content) => {
    expect(ENCODERS[format]).toMatchObject({ mediaType: media, contentType: content });
  });
});

describe('markdownTable', () => {
  it('escapes | in cells and right-aligns the figures asked for', () => {
    expect(
      markdownTable(
        [{ head: 'series' }, { head: 'n', right: true }],
        [['traffic|sensor=s1', '1,024']],
      ),
    ).toEqual(['| series | n |', '| --- | ---: |', '| traffic\\|sensor=s1 | 1,024 |']);
  });
});
