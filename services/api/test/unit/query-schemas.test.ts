import { describe, expect, it } from '@jest/globals';
import { TIME_FORMS } from '@tickertape/query';
import {
  pointsQuerySchema,
  seriesQuerySchema,
  windowQuerySchema,
} from '../../src/query-schemas.js';
import { readRange, seriesRange, windowRange } from '../../src/ranges.js';

const T0 = Date.UTC(2026, 0, 1);

/** The issues of a refused query string as `path: message` lines. */
function issues(
  schema: {
    safeParse(v: unknown): { error?: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  query: unknown,
): string[] {
  return (schema.safeParse(query).error?.issues ?? []).map(
    (issue) => `${issue.path.map(String).join('.')}: ${issue.message}`,
  );
}

describe('series query', () => {
  it('reads key=value and key:value alike, as the CLI reads --tag', () => {
    expect(seriesQuerySchema.parse({ tag: ['road=a1', 'url:http://x=y'] }).tag).toEqual({
      road: 'a1',
      url: 'http://x=y',
    });
  });

  it('turns repeated tags into one filter and defaults the limit', () => {
    expect(
      seriesQuerySchema.parse({ metric: 'speed', tag: ['sensor:s1', 'url:http://x'], from: '0' }),
    ).toEqual({ metric: 'speed', tag: { sensor: 's1', url: 'http://x' }, from: 0, limit: 100 });
    expect(seriesQuerySchema.parse({ tag: 'road:a1' }).tag).toEqual({ road: 'a1' });
  });

  it('keeps a tag named __proto__ a tag', () => {
    const { tag } = seriesQuerySchema.parse({ tag: '__proto__:x' });
    expect(Object.keys(tag!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(tag)).toBe(Object.prototype);
  });

  it.each<[Record<string, unknown>, string[]]>([
    [
      { tag: 'sensor' },
      [
        'tag: "sensor" is not a tag; give key=value (or key:value), repeated for several tags, e.g. sensor=s1',
      ],
    ],
    [
      { tag: ':s1' },
      [
        'tag: ":s1" is not a tag; give key=value (or key:value), repeated for several tags, e.g. sensor=s1',
      ],
    ],
    [
      { tag: ['a:1', 'a=2'] },
      ['tag: tag "a" is given twice with different values ("1", "2"); no series has both'],
    ],
    [{ limit: '0' }, ['limit: Too small: expected number to be >=1']],
    [{ limit: '1001' }, ['limit: Too big: expected number to be <=1000']],
    [{ limit: '2.5' }, ['limit: must be a whole number']],
    [{ metric: ['a', 'b'] }, ['metric: give it once (it is not repeatable)']],
    [{ sort: 'name' }, [': Unrecognized key: "sort"']],
  ])('refuses %j', (query, expected) => {
    expect(issues(seriesQuerySchema, query)).toEqual(expected);
  });
});

describe('points query', () => {
  const base = { series: 'speed|sensor=s1', field: 'speed', from: '2026-01-01' };

  it('parses times and numbers, leaving level names to the reader', () => {
    expect(
      pointsQuerySchema.parse({
        ...base,
        to: String(T0 + 3_600_000),
        level: 'week',
        detail: 'sub',
      }),
    ).toEqual({ ...base, from: T0, to: T0 + 3_600_000, level: 'week', detail: 'sub' });
    expect(pointsQuerySchema.parse({ ...base, maxPoints: '250' }).maxPoints).toBe(250);
  });

  it.each<[Record<string, unknown>, string[]]>([
    [{ field: 'speed', from: '0' }, ['series: is required']],
    [{ ...base, series: '' }, ['series: must not be empty']],
    [{ ...base, from: 'soon' }, [`from: "soon" is not a time; give ${TIME_FORMS}`]],
    [{ ...base, detail: 'slot' }, ['detail: applies only with level=minute|hour|day']],
    [
      { ...base, level: 'hour', maxPoints: '5' },
      ['maxPoints: applies only without level: an explicit level fixes the width'],
    ],
    [
      { ...base, detail: 'all', level: 'hour' },
      ['detail: Invalid option: expected one of "slot"|"sub"'],
    ],
    [{ ...base, maxPoints: 'lots' }, ['maxPoints: must be a number']],
    [
      { ...base, quantile: '0.5,1.5' },
      ['quantile: "1.5" is not a quantile: give each φ in [0, 1], e.g. 0.5,0.85,0.99'],
    ],
    [
      { ...base, quantile: ['p95', ''] },
      [
        'quantile: "p95" is not a quantile: give each φ in [0, 1], e.g. 0.5,0.85,0.99',
        'quantile: "" is not a quantile: give each φ in [0, 1], e.g. 0.5,0.85,0.99',
      ],
    ],
  ])('refuses %j', (query, expected) => {
    expect(issues(pointsQuerySchema, query)).toEqual(expected);
  });

  it("reads the instants the routes' hook writes, and leaves from and to to their defaults", () => {
    const { from, to } = pointsQuerySchema.parse({
      ...base,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-01T01:30:00.000Z',
    });
    expect([from, to]).toEqual([T0, T0 + 5_400_000]);
    const bare = pointsQuerySchema.parse({ series: base.series, field: base.field });
    expect([bare.from, bare.to]).toEqual([undefined, undefined]);
  });

  it.each(['now', '-15m', 'now-1h30m'])(
    'never reads the clock: %j, which the hook reads on one clock reading per request, is refused here',
    (text) => {
      expect(issues(pointsQuerySchema, { ...base, to: text })).toEqual([
        `to: ${JSON.stringify(text)} is not a time; give ${TIME_FORMS}`,
      ]);
    },
  );

  it('takes quantiles as a comma list or repeated, in order', () => {
    expect(pointsQuerySchema.parse({ ...base, quantile: '0.5,0.85' }).quantile).toEqual([
      0.5, 0.85,
    ]);
    expect(pointsQuerySchema.parse({ ...base, quantile: ['0.99', '0,1'] }).quantile).toEqual([
      0.99, 0, 1,
    ]);
  });
});

describe('window query', () => {
  it('takes one or many series, and last as minutes', () => {
    expect(windowQuerySchema.parse({ series: 'a', field: 'f', last: '2h' })).toEqual({
      series: ['a'],
      field: 'f',
      last: 120,
    });
    expect(windowQuerySchema.parse({ series: ['a', 'b'], field: 'f', from: '0' }).series).toEqual([
      'a',
      'b',
    ]);
  });

  it('selects series by metric, tags and a limit instead', () => {
    expect(
      windowQuerySchema.parse({
        metric: 'traffic',
        tag: ['road:A1', 'dir:n'],
        limit: '50',
        field: 'speed',
        last: '10m',
      }),
    ).toEqual({
      metric: 'traffic',
      tag: { road: 'A1', dir: 'n' },
      limit: 50,
      field: 'speed',
      last: 10,
    });
  });

  it.each<[Record<string, unknown>, string[]]>([
    [
      { field: 'f', last: '10m' },
      [
        'series: name the series: give either series (repeatable) or metric (with tag, limit), not both',
      ],
    ],
    [
      { series: 'a', metric: 'traffic', field: 'f', last: '10m' },
      [
        'series: name the series: give either series (repeatable) or metric (with tag, limit), not both',
      ],
    ],
    [
      { series: 'a', tag: 'road:a1', limit: '5', field: 'f', last: '10m' },
      ['tag: applies only with metric', 'limit: applies only with metric'],
    ],
    [
      { metric: 'traffic', limit: '0', field: 'f', last: '10m' },
      ['limit: Too small: expected number to be >=1'],
    ],
    [{ series: ['a', ''], field: 'f', last: '10m' }, ['series.1: must not be empty']],
    [
      { series: 'a', field: 'f', last: '10m', to: '0' },
      ['last: give either last or from/to, not both'],
    ],
    [
      { series: 'a', field: 'f', last: 'ten minutes' },
      [
        'last: "ten minutes" is not a window length; give whole minutes with units, such as 10m, 2h, 1h30m, 7d or 1w',
      ],
    ],
  ])('refuses %j', (query, expected) => {
    expect(issues(windowQuerySchema, query)).toEqual(expected);
  });
});

describe("default ranges: the CLI's, from TIME_DEFAULTS", () => {
  const HOUR = 3_600_000;
  it('reads to now and from an hour before to, unless given', () => {
    expect(readRange(undefined, undefined, T0)).toEqual({ fromMs: T0 - HOUR, toMs: T0 });
    expect(readRange(7, undefined, T0)).toEqual({ fromMs: 7, toMs: T0 });
    expect(readRange(undefined, T0 - 9, T0)).toEqual({ fromMs: T0 - 9 - HOUR, toMs: T0 - 9 });
  });

  it('discovers series over the week before to, to defaulting to now', () => {
    expect(seriesRange(undefined, undefined, T0)).toEqual({ fromMs: T0 - 168 * HOUR, toMs: T0 });
    expect(seriesRange(undefined, T0 - 5, T0 + 99)).toEqual({
      fromMs: T0 - 5 - 168 * HOUR,
      toMs: T0 - 5,
    });
    expect(seriesRange(7, 9, T0)).toEqual({ fromMs: 7, toMs: 9 });
  });

  it('takes last as whole minutes up to and including the current one', () => {
    expect(windowRange({ last: 10 }, T0 + 90_000)).toEqual({
      fromMs: T0 - 480_000,
      toMs: T0 + 120_000,
    });
    expect(windowRange({ from: T0 }, T0 + 5)).toEqual({ fromMs: T0, toMs: T0 + 5 });
    expect(windowRange({}, T0)).toEqual({ fromMs: T0 - 3_600_000, toMs: T0 });
  });
});
