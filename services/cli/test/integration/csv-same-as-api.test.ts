/**
 * The CLI's `--format csv` and the API's `format=csv` are one writer over one table: for the
 * same read of the same database, `tickertape query …` prints exactly the bytes
 * `GET /api/v1/…?format=csv` answers. Ticks are written by the real write path (the store's
 * writer, one per level, as the workers do); the API is built as its main builds it and asked over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { apiBeside, trafficTicks, type ApiBeside } from '../support/api-beside.js';

const at = (iso: string) => Date.parse(iso);
const START = at('2026-11-19T09:50:00Z');
const END = at('2026-11-19T10:20:00Z');
const NOW = at('2026-11-19T10:30:00Z');

/**
 * A tag value a spreadsheet would run, with a comma and quotes, so both sides must escape and
 * quote the same cells the same way.
 */
const SENSORS = [
  { sensor: 's1', road: 'I80' },
  { sensor: 's2', road: 'I80' },
  { sensor: 's3', road: '=HYPERLINK("x","y")' },
];
const SERIES = SENSORS.map((tags) => seriesKey('traffic', tags));

describe('CSV: tickertape query and the API give the same bytes', () => {
  let stack: TestStack;
  let beside: ApiBeside;

  beforeAll(async () => {
    stack = await TestStack.open('cli-csv-api');
    beside = await apiBeside(stack, trafficTicks(SENSORS, START, END), { nowMs: NOW });
  }, 60_000);
  afterAll(async () => {
    await beside.app.close();
    await stack.close();
  });

  const cli = async (args: string[]) => {
    const run = await beside.cliCsv(args);
    expect(run.code).toBe(0);
    return run.stdout;
  };

  const api = async (route: string, query: [string, string | number][]) => {
    const response = await beside.apiCsv(route, query);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    return response.text();
  };

  const from = '2026-11-19T09:55:00Z';
  const to = '2026-11-19T10:10:00Z';

  it('window of named series', async () => {
    const printed = await cli([
      'window',
      '--series',
      ...SERIES,
      '--field',
      'speed',
      '--from',
      from,
      '--to',
      to,
    ]);
    const answered = await api('window', [
      ...SERIES.map((s): [string, string] => ['series', s]),
      ['field', 'speed'],
      ['from', from],
      ['to', to],
    ]);
    expect(printed.split('\r\n')).toHaveLength(SERIES.length + 2);
    expect(printed.split('\r\n')[0]).toBe(
      'time,time_ms,end,end_ms,series,road,sensor,field,n,sum,avg,min,max,' +
        'first,first_time,first_time_ms,last,last_time,last_time_ms,' +
        'variance,stddev,coverage_spread,final',
    );
    expect(printed).toBe(answered);
    expect(printed).toContain(',"\'=HYPERLINK(""x"",""y"")",s3,speed,');
  });

  it('window of a metric selected by tag, and one without data in it', async () => {
    const byMetric = await cli([
      'window',
      '--metric',
      'traffic',
      '--tag',
      'road=I80',
      '--field',
      'speed',
      '--from',
      from,
      '--to',
      to,
    ]);
    expect(byMetric).toBe(
      await api('window', [
        ['metric', 'traffic'],
        ['tag', 'road:I80'],
        ['field', 'speed'],
        ['from', from],
        ['to', to],
      ]),
    );
    const empty = ['2026-11-19T11:00:00Z', '2026-11-19T11:10:00Z'] as const;
    const silent = await cli([
      'window',
      '--series',
      SERIES[0]!,
      '--field',
      'speed',
      '--from',
      empty[0],
      '--to',
      empty[1],
    ]);
    expect(silent).toContain(',0,,,,,,,,,,,,,0,false\r\n');
    expect(silent).toBe(
      await api('window', [
        ['series', SERIES[0]!],
        ['field', 'speed'],
        ['from', empty[0]],
        ['to', empty[1]],
      ]),
    );
  });

  it('points, candles and series lists', async () => {
    const range: [string, string][] = [
      ['from', from],
      ['to', to],
    ];
    const one = ['--series', SERIES[2]!, '--field', 'speed', '--from', from, '--to', to];
    const oneQuery: [string, string][] = [['series', SERIES[2]!], ['field', 'speed'], ...range];
    expect(await cli(['points', ...one, '--max-points', '20'])).toBe(
      await api('points', [...oneQuery, ['maxPoints', '20']]),
    );
    expect(await cli(['points', ...one, '--level', 'minute', '--detail', 'sub'])).toBe(
      await api('points', [...oneQuery, ['level', 'minute'], ['detail', 'sub']]),
    );
    expect(await cli(['candles', ...one, '--max-points', '5'])).toBe(
      await api('candles', [...oneQuery, ['maxPoints', '5']]),
    );
    expect(await cli(['series', '--metric', 'traffic', '--from', from, '--to', to])).toBe(
      await api('series', [['metric', 'traffic'], ...range]),
    );
  });

  it('quantiles: --quantile repeated or as a list is quantile=, column for column', async () => {
    const one = ['--series', SERIES[1]!, '--field', 'speed', '--from', from, '--to', to];
    const oneQuery: [string, string][] = [
      ['series', SERIES[1]!],
      ['field', 'speed'],
      ['from', from],
      ['to', to],
    ];
    const points = await cli([
      'points',
      ...one,
      '--max-points',
      '20',
      '--quantile',
      '0.5',
      '--quantile',
      '0.85,0.99',
    ]);
    expect(points.split('\r\n')[0]).toContain(',q0.5,q0.85,q0.99,coverage_spread,coverage_sketch,');
    expect(points).toBe(
      await api('points', [...oneQuery, ['quantile', '0.5,0.85,0.99'], ['maxPoints', '20']]),
    );
    expect(await cli(['candles', ...one, '--quantile', '0.85', '--max-points', '5'])).toBe(
      await api('candles', [...oneQuery, ['quantile', '0.85'], ['maxPoints', '5']]),
    );
    expect(
      await cli([
        'window',
        '--series',
        ...SERIES,
        '--field',
        'speed',
        '--from',
        from,
        '--to',
        to,
        '--quantile',
        '0.85',
      ]),
    ).toBe(
      await api('window', [
        ...SERIES.map((s): [string, string] => ['series', s]),
        ['field', 'speed'],
        ['from', from],
        ['to', to],
        ['quantile', '0.85'],
      ]),
    );
  });
});
