import { describe, expect, it } from '@jest/globals';
import { pointsTable, tableToCsv } from '@tickertape/answers';
import { QueryError, QueryErrorCode, type RangeResult, type WindowResult } from '@tickertape/query';
import { InvalidArgumentError } from 'commander';
import { tagArgument } from '../../src/arguments.js';
import { describeFailure } from '../../src/failure.js';
import {
  pointsAnswer,
  seriesAnswer,
  statusAnswer,
  windowAnswer,
} from '../../src/format/answers.js';
import { render } from '../../src/format/render.js';
import { quantileArgument, quantilesOf } from '../../src/format/stats.js';
import { formatSpan, isoTime, parseInstant, parseLastMinutes } from '../../src/format/time.js';
import { formatTable } from '../../src/table.js';

const NOW = Date.parse('2026-11-21T10:30:15.250Z');
const at = (iso: string) => Date.parse(iso);

describe('parseInstant (clock injected)', () => {
  it.each([
    ['now', NOW],
    ['NOW', NOW],
    ['-1h', NOW - 3_600_000],
    ['-90m', NOW - 90 * 60_000],
    ['-7d', NOW - 7 * 86_400_000],
    ['-1.5h', NOW - 5_400_000],
    ['-250ms', NOW - 250],
    ['now-15m', NOW - 15 * 60_000],
    ['now-1h30m', NOW - 90 * 60_000],
    // without an offset: UTC, as the API reads it (in --tz when given)
    ['2026-11-21T08:00:00', at('2026-11-21T08:00:00Z')],
    ['+5m', NOW + 5 * 60_000],
    ['now+30s', NOW + 30_000],
    ['2026-11-21T08:00:00Z', at('2026-11-21T08:00:00Z')],
    ['2026-11-21T08:00:00.5+01:00', at('2026-11-21T07:00:00.500Z')],
    ['2026-11-21', at('2026-11-21T00:00:00Z')],
    ['1795248000000', 1_795_248_000_000],
    [' 0 ', 0],
  ])('reads %p', (text, ms) => {
    expect(parseInstant(text, NOW)).toBe(ms);
  });

  it.each(['', 'yesterday', '-1', '-1y', '1h', 'now-', '21/11/2026', '-5', 'now - 15m'])(
    'refuses %p as a bad time (exit 2), naming the option and the accepted forms',
    (text) => {
      let error: unknown;
      try {
        parseInstant(text, NOW, '--from');
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(QueryError);
      expect((error as QueryError).code).toBe(QueryErrorCode.InvalidTime);
      expect((error as QueryError).message).toMatch(
        /^--from: ".*" is not a time; give RFC 3339 with an offset .* now-1h30m/,
      );
      expect(describeFailure(error).exitCode).toBe(2);
    },
  );

  it('follows the clock it is given', () => {
    expect(parseInstant('-1h', 7_200_000)).toBe(3_600_000);
  });
});

describe('parseLastMinutes', () => {
  it.each([
    ['10m', 10],
    ['1h', 60],
    ['1.5h', 90],
    ['1d', 1440],
    ['120s', 2],
  ])('reads %p as %p minutes', (text, minutes) => {
    expect(parseLastMinutes(text)).toBe(minutes);
  });

  it.each(['10', '30s', '0m', '-10m', 'ten minutes'])('refuses %p', (text) => {
    expect(() => parseLastMinutes(text)).toThrow(InvalidArgumentError);
  });
});

describe('times and spans for people', () => {
  it('prints ISO-8601 UTC, milliseconds only when there are some', () => {
    expect(isoTime(at('2026-11-21T08:00:00Z'))).toBe('2026-11-21T08:00:00Z');
    expect(isoTime(at('2026-11-21T08:00:00.042Z'))).toBe('2026-11-21T08:00:00.042Z');
  });

  it.each([
    [250, '250ms'],
    [10_000, '10s'],
    [300_000, '5m'],
    [5_400_000, '1h30m'],
    [86_400_000 + 1500, '1d1s500ms'],
  ])('formats %p ms as %p', (ms, text) => {
    expect(formatSpan(ms)).toBe(text);
  });
});

describe('tables', () => {
  it('leaves missing cells empty and still aligns the numbers right', () => {
    expect(
      formatTable(
        ['series', 'avg'],
        [
          ['a', 12.5],
          ['bb', null],
          ['c', 3],
        ],
      ),
    ).toBe('series   avg\na       12.5\nbb\nc          3\n');
  });
});

describe('--tag', () => {
  it('collects key=value (or key:value) pairs, splitting at the first = or :', () => {
    expect(tagArgument('b=x=y', tagArgument('a=1'))).toEqual({ a: '1', b: 'x=y' });
    expect(tagArgument('a=1', { a: '1' })).toEqual({ a: '1' });
    expect(tagArgument('url:http://h:80', { a: '1' })).toEqual({ a: '1', url: 'http://h:80' });
  });

  it.each([['novalue'], ['=v']])('refuses %p as a usage error showing the form', (text) => {
    expect(() => tagArgument(text)).toThrow(InvalidArgumentError);
    expect(() => tagArgument(text)).toThrow('is not a tag; give key=value (or key:value)');
  });

  it('refuses one key with two values', () => {
    expect(() => tagArgument('a:2', { a: '1' })).toThrow('tag "a" is given twice');
  });
});

const T0 = at('2026-11-21T10:00:00Z');

function rangeResult(): RangeResult {
  const point = (minute: number, n: number, sum: number, min: number, max: number) => ({
    t: T0 + minute * 60_000,
    n,
    sum,
    min,
    max,
    open: min,
    close: max,
    avg: sum / n,
    variance: n === 1 ? 0 : 2.25,
    stddev: n === 1 ? 0 : 1.5,
    coverage: { spread: n },
    final: minute === 0,
  });
  return {
    series: 'traffic|sensor=s1',
    field: 'speed',
    fromMs: T0,
    toMs: T0 + 5 * 60_000,
    resolution: { stepMs: 60_000, source: { level: 'minute', detail: 'slot' } },
    points: [point(0, 3, 10, 2, 5), point(3, 1, 7, 7, 7)],
    gaps: [
      { from: T0 + 60_000, to: T0 + 3 * 60_000 },
      { from: T0 + 4 * 60_000, to: T0 + 5 * 60_000 },
    ],
    examined: 2,
    openLevels: ['minute'],
  };
}

describe('points answer', () => {
  it('shows gap rows between the points in a table, with the cost in the notes', () => {
    const out = render('table', pointsAnswer(rangeResult()));
    expect(out.stderr).toBe('');
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^time\s+n\s+avg\s+min\s+max\s+first\s+last\s+stddev\s+final\s+gap$/);
    expect(lines[1]).toMatch(/^2026-11-21T10:00:00Z\s+3\s+3\.3333\s+2\s+5\s+2\s+5\s+1\.5\s+yes$/);
    expect(lines[2]).toMatch(/^2026-11-21T10:01:00Z\s+no data until 2026-11-21T10:03:00Z \(2m\)$/);
    expect(lines[3]).toMatch(/^2026-11-21T10:03:00Z\s+1\s+7\s+7\s+7\s+7\s+7\s+0\s+no$/);
    expect(lines[4]).toMatch(/^2026-11-21T10:04:00Z\s+no data until 2026-11-21T10:05:00Z \(1m\)$/);
    expect(lines.slice(5)).toEqual([
      'traffic|sensor=s1 speed from 2026-11-21T10:00:00Z to 2026-11-21T10:05:00Z: 1m points from minute buckets',
      '2 points, 2 gaps (no data, not zero) over 3m',
      'examined 2 documents',
    ]);
  });

  it('writes the API CSV of the points only (RFC 4180, CRLF), full precision, and the notes to stderr', () => {
    const result = rangeResult();
    const out = render('csv', pointsAnswer(result));
    expect(out.stdout).toBe(tableToCsv(pointsTable(result)));
    expect(out.stdout).toBe(
      'time,time_ms,series,sensor,field,n,sum,avg,min,max,first,last,variance,stddev,coverage_spread,final\r\n' +
        `2026-11-21T10:00:00.000Z,${T0},traffic|sensor=s1,s1,speed,3,10,${10 / 3},2,5,2,5,2.25,1.5,3,true\r\n` +
        `2026-11-21T10:03:00.000Z,${T0 + 180_000},traffic|sensor=s1,s1,speed,1,7,7,7,7,7,7,0,0,1,false\r\n`,
    );
    expect(out.stderr).toMatch(/examined 2 documents\n$/);
  });

  it('prints the reader result as JSON on one line, examined included', () => {
    const out = render('json', pointsAnswer(rangeResult()));
    expect(out.stdout).toBe(`${JSON.stringify(rangeResult())}\n`);
    expect(out.stderr).toBe('');
  });

  it('leaves counts and sums empty at second width, where they are unknown', () => {
    const result = rangeResult();
    result.points = [{ ...result.points[0]!, n: null, sum: null, avg: 4 }];
    expect(render('csv', pointsAnswer(result)).stdout.split('\r\n')[1]).toBe(
      `2026-11-21T10:00:00.000Z,${T0},traffic|sensor=s1,s1,speed,,,4,2,5,2,5,2.25,1.5,3,true`,
    );
  });
});

function windowResult(): WindowResult {
  return {
    field: 'speed',
    fromMs: T0,
    toMs: T0 + 600_000,
    pieces: [{ level: 'hour', start: T0, sub: { from: 0, to: 10 } }],
    examined: 1,
    openLevels: ['hour'],
    rows: [
      {
        series: 'traffic|sensor=s1',
        n: 4,
        sum: 200,
        avg: 50,
        min: 40,
        max: 60,
        first: { t: T0 + 1000, v: 45 },
        last: { t: T0 + 9000, v: 55 },
        variance: 56.25,
        stddev: 7.5,
        coverage: { spread: 4 },
        final: false,
      },
      {
        series: 'traffic|sensor=s2',
        n: 0,
        sum: 0,
        avg: null,
        min: null,
        max: null,
        first: null,
        last: null,
        variance: null,
        stddev: null,
        coverage: { spread: 0 },
        final: false,
      },
    ],
  };
}

describe('window answer', () => {
  it('never prints zeros for a series without data', () => {
    const csv = render('csv', windowAnswer(windowResult())).stdout.split('\r\n');
    const span = `2026-11-21T10:00:00.000Z,${T0},2026-11-21T10:10:00.000Z,${T0 + 600_000}`;
    expect(csv[0]).toBe(
      'time,time_ms,end,end_ms,series,sensor,field,n,sum,avg,min,max,' +
        'first,first_time,first_time_ms,last,last_time,last_time_ms,variance,stddev,coverage_spread,final',
    );
    expect(csv[1]).toBe(
      `${span},traffic|sensor=s1,s1,speed,4,200,50,40,60,` +
        `45,2026-11-21T10:00:01.000Z,${T0 + 1000},55,2026-11-21T10:00:09.000Z,${T0 + 9000},56.25,7.5,4,false`,
    );
    expect(csv[2]).toBe(`${span},traffic|sensor=s2,s2,speed,0,,,,,,,,,,,,,0,false`);
    const table = render('table', windowAnswer(windowResult())).stdout;
    expect(table).toMatch(/^traffic\|sensor=s2\s+0\s+no$/m);
    expect(table).toContain('1 of 2 series without data in the window: empty cells\n');
    expect(table).toMatch(/examined 1 document\n$/);
  });

  it('says how the series were found when selected by metric, in JSON and in the notes', () => {
    const answer = windowAnswer({
      ...windowResult(),
      selected: { metric: 'traffic', tags: { road: 'I80' }, series: 2, truncated: true },
    });
    expect(answer.answer.json()).toMatchObject({
      examined: 1,
      selected: { metric: 'traffic', series: 2, truncated: true },
    });
    const notes = render('table', answer).stdout;
    expect(notes).toContain(
      "2 series of traffic (road=I80) found in the window's buckets; more match: raise --limit",
    );
    expect(notes).toMatch(/examined 1 document\n$/);
  });
});

describe('series and status answers', () => {
  it('lists series with sorted tags; CSV quotes keys holding commas', () => {
    const answer = seriesAnswer(
      {
        level: 'day',
        examined: 2,
        truncated: false,
        series: [
          {
            series: 'traffic|road=I80,sensor=s1',
            metric: 'traffic',
            tags: { sensor: 's1', road: 'I80' },
            fields: ['speed', 'travel_time'],
            lastSlotMs: T0,
          },
        ],
      },
      { fromMs: T0, toMs: T0 + 86_400_000 },
    );
    expect(render('csv', answer).stdout).toBe(
      'series,metric,road,sensor,fields,last_slot,last_slot_ms\r\n' +
        `"traffic|road=I80,sensor=s1",traffic,I80,s1,"speed,travel_time",2026-11-21T10:00:00.000Z,${T0}\r\n`,
    );
    expect(render('table', answer).stdout).toMatch(/examined 2 documents\n$/);
  });

  it('leaves levels without buckets empty', () => {
    const answer = statusAnswer({
      series: 'x',
      examined: 1,
      levels: [
        {
          level: 'minute',
          latestSlotMs: T0,
          freshnessMs: T0 + 1500,
          latestFinal: true,
          finalBefore: T0 + 60_000,
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
    expect(render('csv', answer).stdout).toBe(
      'level,series,latest_slot,latest_slot_ms,newest_tick,newest_tick_ms,latest_final,final_before,final_before_ms\r\n' +
        `minute,x,2026-11-21T10:00:00.000Z,${T0},2026-11-21T10:00:01.500Z,${T0 + 1500},true,2026-11-21T10:01:00.000Z,${T0 + 60_000}\r\n` +
        'hour,x,,,,,,,\r\n',
    );
    expect(render('table', answer).stdout).toMatch(/^hour$/m);
  });
});

describe('exit codes', () => {
  it('is 2 for a refused query and 1 for anything else, with one line', () => {
    const refused = describeFailure(new QueryError(QueryErrorCode.TooManySeries, 'too many'));
    expect(refused).toEqual({
      exitCode: 2,
      message: 'tickertape: QUERY_TOO_MANY_SERIES: too many\n',
    });
    expect(describeFailure(new Error('boom')).exitCode).toBe(1);
  });
});

describe('--quantile', () => {
  it('collects repeated flags and comma lists, in order', () => {
    expect(quantilesOf(quantileArgument('0.99', quantileArgument('0.5,0.85')))).toEqual([
      0.5, 0.85, 0.99,
    ]);
    expect(quantilesOf(undefined)).toBeUndefined();
  });

  it.each(['1.5', '-0.1', 'p95', '', 'NaN'])('refuses %p as a refused query (exit 2)', (text) => {
    let error: unknown;
    try {
      quantilesOf([text]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).code).toBe(QueryErrorCode.InvalidQuantile);
    expect((error as QueryError).message).toMatch(/is not a quantile: give each φ in \[0, 1\]/);
    expect(describeFailure(error).exitCode).toBe(2);
  });

  it('shows a column per quantile and the weighted average, and says when they cover fewer ticks', () => {
    const result = windowResult();
    result.rows = result.rows.map((row, i) => ({
      ...row,
      quantiles: { 'q0.5': i === 0 ? 50 : null, 'q0.99': i === 0 ? 59.5 : null },
      weighted: { by: 'count', avg: i === 0 ? 51 : null },
      coverage: { ...row.coverage, sketch: i === 0 ? 3 : 0, weighted: row.n },
    }));
    const out = render('table', windowAnswer(result)).stdout;
    const [header, first] = out.split('\n');
    expect(header).toMatch(
      /^series\s+n\s+avg\s+min\s+max\s+first\s+last\s+stddev\s+q0\.5\s+q0\.99\s+wavg_count\s+final$/,
    );
    expect(first).toMatch(
      /^traffic\|sensor=s1\s+4\s+50\s+40\s+60\s+45\s+55\s+7\.5\s+50\s+59\.5\s+51\s+no$/,
    );
    expect(out).toContain(
      'quantiles over fewer ticks than n in 1 of 2 rows (parts written without it; see coverage in --format csv or json)\n',
    );
    const csv = render('csv', windowAnswer(result)).stdout.split('\r\n')[0];
    expect(csv).toMatch(
      /,variance,stddev,q0\.5,q0\.99,wavg_count,coverage_spread,coverage_sketch,coverage_weighted,final$/,
    );
  });
});
