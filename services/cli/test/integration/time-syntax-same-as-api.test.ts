/**
 * One time syntax, one tag syntax, one set of defaults (issue 38; docs/querying.md, "Times and
 * tags"): every form a person types — relative times, `now`, RFC 3339 with an offset, a time
 * without one (UTC, or the wall time in tz), epoch ms, `key=value` or `key:value` tags, and no
 * time at all — gives `tickertape query …` and `GET /api/v1/…` the same answer byte for byte,
 * on the same clock; and the same bad input is refused by both with the same words (exit 2, 400).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_MAX_POINTS, TIME_FORMS } from '@tickertape/query';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { apiBeside, trafficTicks, type ApiBeside } from '../support/api-beside.js';

const at = (iso: string) => Date.parse(iso);
const START = at('2026-11-19T09:20:00Z');
const NOW = at('2026-11-19T10:30:00Z');
const SENSORS = [
  { sensor: 's1', road: 'I80' },
  { sensor: 's2', road: 'I80' },
  { sensor: 's3', road: 'A1' },
];
const SERIES = SENSORS.map((tags) => seriesKey('traffic', tags));

describe('times and tags: tickertape query and the API read them alike', () => {
  let stack: TestStack;
  let beside: ApiBeside;

  beforeAll(async () => {
    stack = await TestStack.open('cli-time-syntax');
    beside = await apiBeside(stack, trafficTicks(SENSORS, START, NOW), { nowMs: NOW });
  }, 60_000);
  afterAll(async () => {
    await beside.app.close();
    await stack.close();
  });

  const cli = (args: string[]) => beside.cliCsv(args);

  const api = async (route: string, query: [string, string][]) => {
    const response = await beside.apiCsv(route, query);
    return { status: response.status, text: await response.text() };
  };

  /** Both answered 200/exit 0 with the same bytes, holding rows; the bytes returned. */
  const same = async (args: string[], route: string, query: [string, string][]) => {
    const printed = await cli(args);
    const answered = await api(route, query);
    expect([printed.code, answered.status]).toEqual([0, 200]);
    expect(printed.stdout).toBe(answered.text);
    expect(printed.stdout.split('\r\n').length).toBeGreaterThan(2);
    return printed.stdout;
  };

  const S1 = SERIES[0]!;
  const pointsArgs = (...range: string[]) => [
    'points',
    '--series',
    S1,
    '--field',
    'speed',
    '--max-points',
    '30',
    ...range,
  ];
  const pointsQuery = (...range: [string, string][]): [string, string][] => [
    ['series', S1],
    ['field', 'speed'],
    ['maxPoints', '30'],
    ...range,
  ];

  it.each<[string, string[], [string, string][]]>([
    [
      'relative times',
      ['--from', '-45m', '--to', '-5m'],
      [
        ['from', '-45m'],
        ['to', '-5m'],
      ],
    ],
    [
      'now-based times',
      ['--from', 'now-1h', '--to', 'now'],
      [
        ['from', 'now-1h'],
        ['to', 'now'],
      ],
    ],
    ['a compound span', ['--from', 'now-1h10m'], [['from', 'now-1h10m']]],
    [
      'epoch milliseconds',
      ['--from', String(NOW - 3_000_000)],
      [['from', String(NOW - 3_000_000)]],
    ],
    [
      'RFC 3339 with an offset',
      ['--from', '2026-11-19T11:00+01:00', '--to', '2026-11-19T10:20:00Z'],
      [
        ['from', '2026-11-19T11:00+01:00'],
        ['to', '2026-11-19T10:20:00Z'],
      ],
    ],
    [
      'times without an offset (UTC)',
      ['--from', '2026-11-19T10:00', '--to', '2026-11-19T10:20:00'],
      [
        ['from', '2026-11-19T10:00'],
        ['to', '2026-11-19T10:20:00'],
      ],
    ],
    [
      'times without an offset in tz (wall time in Kolkata)',
      ['--tz', 'Asia/Kolkata', '--from', '2026-11-19T15:30', '--to', '2026-11-19T15:50'],
      [
        ['tz', 'Asia/Kolkata'],
        ['from', '2026-11-19T15:30'],
        ['to', '2026-11-19T15:50'],
      ],
    ],
  ])('points: %s', async (_name, range, query) => {
    await same(pointsArgs(...range), 'points', pointsQuery(...query));
  });

  it('points: to alone is the hour before it in both', async () => {
    const hour = await same(pointsArgs('--to', '-10m'), 'points', pointsQuery(['to', '-10m']));
    expect(hour).toBe(
      await same(
        pointsArgs('--from', '-70m', '--to', '-10m'),
        'points',
        pointsQuery(['from', '-70m'], ['to', '-10m']),
      ),
    );
  });

  it('points: no from and no to are -1h and now in both', async () => {
    const defaulted = await same(pointsArgs(), 'points', pointsQuery());
    expect(defaulted).toBe(
      await same(
        pointsArgs('--from', '-1h'),
        'points',
        pointsQuery(['from', '-1h'], ['to', 'now']),
      ),
    );
  });

  it.each([['points'], ['candles']])(
    '%s: no --max-points and no maxPoints draw as many points in both',
    async (route) => {
      const args = [route, '--series', S1, '--field', 'speed', '--from', '-70m'];
      const query: [string, string][] = [
        ['series', S1],
        ['field', 'speed'],
        ['from', '-70m'],
      ];
      const max = String(DEFAULT_MAX_POINTS);
      expect(await same(args, route, query)).toBe(
        await same([...args, '--max-points', max], route, [...query, ['maxPoints', max]]),
      );
    },
  );

  it('reads a time without an offset as UTC in both: the same answer as with Z', async () => {
    expect(
      await same(
        pointsArgs('--from', '2026-11-19T10:00'),
        'points',
        pointsQuery(['from', '2026-11-19T10:00']),
      ),
    ).toBe(
      await same(
        pointsArgs('--from', '2026-11-19T10:00Z'),
        'points',
        pointsQuery(['from', '2026-11-19T10:00:00Z']),
      ),
    );
  });

  it('candles and series: relative and default ranges', async () => {
    const candle = ['--series', S1, '--field', 'speed', '--max-points', '6'];
    const candleQuery: [string, string][] = [
      ['series', S1],
      ['field', 'speed'],
      ['maxPoints', '6'],
    ];
    await same(['candles', ...candle, '--from', '-40m'], 'candles', [
      ...candleQuery,
      ['from', '-40m'],
    ]);
    await same(['candles', ...candle], 'candles', candleQuery);
    // Series discovery looks a week back by default, in both.
    const listed = await same(['series', '--metric', 'traffic'], 'series', [['metric', 'traffic']]);
    expect(listed.split('\r\n')).toHaveLength(SERIES.length + 2);
  });

  it('window: tags as key=value or key:value, by flag or parameter, and the default range', async () => {
    const byTag = (tag: string) => [
      'window',
      '--metric',
      'traffic',
      '--tag',
      tag,
      '--field',
      'speed',
      '--from',
      '-30m',
    ];
    const byTagQuery = (tag: string): [string, string][] => [
      ['metric', 'traffic'],
      ['tag', tag],
      ['field', 'speed'],
      ['from', '-30m'],
    ];
    const canonical = await same(byTag('road=I80'), 'window', byTagQuery('road=I80'));
    expect(canonical.split('\r\n')).toHaveLength(2 + 2);
    expect(await same(byTag('road:I80'), 'window', byTagQuery('road:I80'))).toBe(canonical);
    expect((await api('window', byTagQuery('road=I80'))).text).toBe(canonical);
    // Neither --last nor --from: the last hour to now, as points.
    await same(['window', '--series', ...SERIES, '--field', 'speed'], 'window', [
      ...SERIES.map((s): [string, string] => ['series', s]),
      ['field', 'speed'],
    ]);
  });

  /** The refusal's words after the name of the flag or parameter. */
  const refusals = async (
    args: string[],
    route: string,
    query: [string, string][],
    name: string,
  ) => {
    const printed = await cli(args);
    const answered = await api(route, query);
    expect([printed.code, answered.status]).toEqual([2, 400]);
    const message = (JSON.parse(answered.text) as { message: string }).message;
    expect(message.startsWith(`${name}: `)).toBe(true);
    expect(printed.stderr).toContain(`--${name}: ${message.slice(name.length + 2)}`);
    return message;
  };

  it.each(['yesterday', '2026-02-30', '-15', 'now - 15m', '15m'])(
    'refuses the time %j alike: exit 2 and 400, naming the parameter and the forms',
    async (text) => {
      const message = await refusals(
        pointsArgs('--from', text),
        'points',
        pointsQuery(['from', text]),
        'from',
      );
      expect(message).toBe(`from: ${JSON.stringify(text)} is not a time; give ${TIME_FORMS}`);
    },
  );

  it('window: --last and last= read one length syntax, and refuse alike', async () => {
    const window = ['window', '--series', ...SERIES, '--field', 'speed'];
    const query: [string, string][] = [
      ...SERIES.map((s): [string, string] => ['series', s]),
      ['field', 'speed'],
    ];
    await same([...window, '--last', '1h10m'], 'window', [...query, ['last', '1h10m']]);
    const printed = await cli([...window, '--last', '90s']);
    const answered = await api('window', [...query, ['last', '90s']]);
    expect([printed.code, answered.status]).toEqual([2, 400]);
    const message = (JSON.parse(answered.text) as { message: string }).message;
    expect(message).toMatch(/^last: "90s" is not a window length; give whole minutes/);
    expect(printed.stderr).toContain(message.slice('last: '.length));
  });

  it('refuses a malformed tag and one key with two values alike', async () => {
    const series = (...tags: string[]) => [
      'series',
      '--metric',
      'traffic',
      ...tags.flatMap((t) => ['--tag', t]),
    ];
    const query = (...tags: string[]): [string, string][] => [
      ['metric', 'traffic'],
      ...tags.map((t): [string, string] => ['tag', t]),
    ];
    expect(await refusals(series('road'), 'series', query('road'), 'tag')).toMatch(
      /^tag: "road" is not a tag; give key=value \(or key:value\)/,
    );
    expect(
      await refusals(series('road=I80', 'road:A1'), 'series', query('road=I80', 'road:A1'), 'tag'),
    ).toMatch(/^tag: tag "road" is given twice with different values \("I80", "A1"\)/);
  });
});
