import { describe, expect, it } from '@jest/globals';
import { tableFromIPC } from 'apache-arrow';
import {
  candlesTable,
  pointsTable,
  tableToArrowStream,
  tableToCsv,
  windowTable,
  type PointsRead,
} from '../../src/index.js';

const DAY_START = Date.parse('2026-03-08T08:00:00Z');
const DAY_END = Date.parse('2026-03-09T07:00:00Z');
const NEXT_END = Date.parse('2026-03-10T07:00:00Z');
const names = (table: { columns: readonly { name: string }[] }) =>
  table.columns.map((c) => c.name).join(',');

const read: PointsRead = {
  series: 'speed|sensor=la',
  field: 'speed',
  tz: 'America/Los_Angeles',
  fill: 'null',
  points: [
    {
      t: DAY_START,
      end: DAY_END,
      local: '2026-03-08T00:00:00.000-08:00',
      n: 2,
      sum: 10,
      avg: 5,
      min: 4,
      max: 6,
      open: 6,
      close: 4,
      variance: 1,
      stddev: 1,
      coverage: { spread: 2 },
      final: true,
      filled: false,
    },
    {
      t: DAY_END,
      end: NEXT_END,
      local: '2026-03-09T00:00:00.000-07:00',
      n: null,
      sum: null,
      avg: null,
      min: null,
      max: null,
      open: null,
      close: null,
      variance: null,
      stddev: null,
      coverage: { spread: 0 },
      final: true,
      filled: true,
    },
  ],
};

describe('the columns of local steps and fills', () => {
  it('points: each step’s UTC end and local start after time, `filled` after final', () => {
    const table = pointsTable(read);
    expect(names(table)).toBe(
      'time,time_ms,end,end_ms,local_time,series,sensor,field,n,sum,avg,min,max,first,last,variance,stddev,coverage_spread,final,filled',
    );
    expect(tableToCsv(table).split('\r\n')[2]).toBe(
      '2026-03-09T07:00:00.000Z,1773039600000,2026-03-10T07:00:00.000Z,1773126000000,2026-03-09T00:00:00.000-07:00,speed|sensor=la,la,speed,,,,,,,,,,0,true,true',
    );
    const arrow = tableFromIPC(tableToArrowStream(table));
    expect(arrow.schema.fields.map((f) => [f.name, String(f.type)])).toEqual(
      expect.arrayContaining([
        ['end_ms', 'Timestamp<MILLISECOND, UTC>'],
        ['local_time', 'Utf8'],
        ['filled', 'Bool'],
      ]),
    );
  });

  it('points without tz or fill keep their columns', () => {
    const { tz: _tz, fill: _fill, ...plain } = read;
    expect(names(pointsTable(plain))).toBe(
      'time,time_ms,series,sensor,field,n,sum,avg,min,max,first,last,variance,stddev,coverage_spread,final',
    );
  });

  it('candles and the window with a zone', () => {
    const candles = candlesTable({
      series: 'p|s=a',
      field: 'p',
      tz: 'Asia/Kolkata',
      candles: [
        {
          t: 0,
          end: 1,
          local: '1970-01-01T05:30:00.000+05:30',
          open: 1,
          high: 1,
          low: 1,
          close: 1,
          volume: 1,
          variance: 0,
          stddev: 0,
          coverage: { spread: 1 },
          final: true,
        },
      ],
    });
    expect(names(candles)).toBe(
      'time,time_ms,end,end_ms,local_time,series,s,field,open,high,low,close,volume,variance,stddev,coverage_spread,final',
    );
    const window = windowTable({
      field: 'speed',
      fromMs: DAY_START,
      toMs: DAY_END,
      tz: 'America/Los_Angeles',
      local: { from: '2026-03-08T00:00:00.000-08:00', to: '2026-03-09T00:00:00.000-07:00' },
      rows: [],
    });
    expect(names(window)).toBe(
      'time,time_ms,end,end_ms,local_time,local_end,series,field,n,sum,avg,min,max,first,first_time,first_time_ms,last,last_time,last_time_ms,variance,stddev,coverage_spread,final',
    );
  });
});
