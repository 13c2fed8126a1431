import { describe, expect, it } from '@jest/globals';
import { parsePromQL, PromQLError } from '../../src/index.js';

const refusal = (query: string): PromQLError => {
  try {
    parsePromQL(query);
  } catch (err) {
    if (err instanceof PromQLError) return err;
    throw err;
  }
  throw new Error(`${query} was accepted`);
};

describe('parsePromQL', () => {
  it.each([
    [
      'traffic_speed{segment=~"I80.*",dir!="E"}',
      {
        kind: 'selector',
        selector: {
          offsetMs: 0,
          matchers: [
            { label: '__name__', op: '=', value: 'traffic_speed' },
            { label: 'segment', op: '=~', value: 'I80.*' },
            { label: 'dir', op: '!=', value: 'E' },
          ],
        },
      },
    ],
    [
      'avg_over_time(x[10m] offset 5m)',
      {
        kind: 'range-function',
        fn: 'avg_over_time',
        rangeMs: 600_000,
        selector: { offsetMs: 300_000, matchers: [{ label: '__name__', op: '=', value: 'x' }] },
      },
    ],
    [
      '{__name__="x", a!~\'b\\\\.c\'}',
      {
        kind: 'selector',
        selector: {
          offsetMs: 0,
          matchers: [
            { label: '__name__', op: '=', value: 'x' },
            { label: 'a', op: '!~', value: 'b\\.c' },
          ],
        },
      },
    ],
  ])('reads %s', (query, tree) => {
    expect(parsePromQL(query)).toEqual(tree);
  });

  // Prometheus' lexer drops `#` to the end of the line anywhere outside a string: a comment
  // between the sides of an operator, before a sign or inside a list reads as nothing.
  it.each([
    ['up\n# note\n+ up', 'up + up'],
    ['sum(x) # c\n/ 2', 'sum(x) / 2'],
    ['# leading\nup', 'up'],
    ['up # trailing', 'up'],
    ['( # c\n up )', '(up)'],
    ['- # c\n 2', '-2'],
    ['x offset # c\n -5m', 'x offset -5m'],
    ['x == # c\n bool 2', 'x == bool 2'],
    ['x + on( # c\n a) y', 'x + on(a) y'],
    ['sum by (a # c\n, b) (x)', 'sum by (a, b) (x)'],
    ['avg_over_time(x[5m] # c\n)', 'avg_over_time(x[5m])'],
    ['quantile_over_time(0.5, # φ\n x[5m])', 'quantile_over_time(0.5, x[5m])'],
    ['topk( # k\n 3, x)', 'topk(3, x)'],
    ['x{a="b", # c\n d!="e"}', 'x{a="b", d!="e"}'],
  ])('reads %j as %j', (commented, plain) => {
    expect(parsePromQL(commented)).toEqual(parsePromQL(plain));
  });

  it('keeps a # inside a string, and a query of only comments is refused', () => {
    expect(parsePromQL('x{a="#b"} # c')).toEqual({
      kind: 'selector',
      selector: {
        offsetMs: 0,
        matchers: [
          { label: '__name__', op: '=', value: 'x' },
          { label: 'a', op: '=', value: '#b' },
        ],
      },
    });
    expect(refusal('# only a note').code).toBe('PROMQL_SYNTAX');
  });

  it('reads quantile_over_time with its φ, and the spread functions', () => {
    expect(parsePromQL('quantile_over_time(0.85, x[10m] offset 5m)')).toEqual({
      kind: 'range-function',
      fn: 'quantile_over_time',
      rangeMs: 600_000,
      param: { kind: 'number', value: 0.85 },
      selector: { offsetMs: 300_000, matchers: [{ label: '__name__', op: '=', value: 'x' }] },
    });
    expect(parsePromQL('max by (dir) (stddev_over_time(x[1h]))')).toMatchObject({
      kind: 'aggregate',
      expr: { kind: 'range-function', fn: 'stddev_over_time', rangeMs: 3_600_000 },
    });
    expect(parsePromQL('stdvar_over_time(x[5m])')).toMatchObject({ fn: 'stdvar_over_time' });
  });

  it('reads aggregations with by/without, topk, arithmetic, bool comparisons and negation', () => {
    expect(parsePromQL('sum without (dir) (x) * 2')).toEqual({
      kind: 'binary',
      op: '*',
      bool: false,
      lhs: {
        kind: 'aggregate',
        op: 'sum',
        grouping: { without: true, labels: ['dir'] },
        expr: { kind: 'selector', selector: expect.any(Object) },
      },
      rhs: { kind: 'number', value: 2 },
    });
    expect(parsePromQL('topk(3, x)')).toMatchObject({
      kind: 'aggregate',
      op: 'topk',
      param: { kind: 'number', value: 3 },
    });
    expect(parsePromQL('avg(x) by (a)')).toMatchObject({
      grouping: { without: false, labels: ['a'] },
    });
    expect(parsePromQL('x > bool 3')).toMatchObject({ kind: 'binary', op: '>', bool: true });
    expect(parsePromQL('-(x)')).toMatchObject({ kind: 'negate' });
    expect(parsePromQL('1h')).toEqual({ kind: 'number', value: 3600 });
    expect(parsePromQL('(2 ^ 3)')).toMatchObject({ kind: 'binary', op: '^' });
    expect(parsePromQL('x / ignoring(dir) y')).toMatchObject({
      kind: 'binary',
      op: '/',
      matching: { on: false, labels: ['dir'] },
    });
    expect(parsePromQL('x > on(a, "b") y')).toMatchObject({
      matching: { on: true, labels: ['a', 'b'] },
    });
  });

  it.each([
    ['rate(x[5m])', /counters; ticks are gauges/],
    ['increase(x[5m])', /counters/],
    ['histogram_quantile(0.9, x)', /not supported/],
    ['x[5m:1m]', /subqueries/],
    ['x @ 100', /@ modifier/],
    ['x[5m]', /argument of a \*_over_time/],
    ['quantile(0.5, x)', /aggregation quantile is not supported/],
    ['x and y', /operator and is not supported/],
    ['x / on(a) group_left y', /group_left and group_right/],
    ['avg_over_time(x)', /range selector/],
    ['quantile_over_time(x[5m])', /takes a number φ and a range selector, got 1/],
    ['quantile_over_time(0.5, x)', /range selector/],
    ['stddev_over_time(0.5, x[5m])', /takes one range selector, got 2/],
    ['absent_over_time(x[5m])', /not supported; we evaluate .*stddev, stdvar and quantile/],
    ['sum(', /syntax error at character/],
    ['', /empty/],
    ['{a=""}', /at least one non-empty matcher/],
    ['x{a=~"("}', /invalid regular expression/],
  ])('refuses %s', (query, message) => {
    const err = refusal(query);
    expect(err.message).toMatch(message);
    expect(['PROMQL_SYNTAX', 'PROMQL_UNSUPPORTED', 'PROMQL_BAD_PARAMETER']).toContain(err.code);
    expect(err.errorType).toBe('bad_data');
  });
});
