import { describe, expect, it } from '@jest/globals';
import { parser } from '@prometheus-io/lezer-promql';
import {
  CEILINGS,
  DEFAULT_QUERY_BOUNDS,
  MAX_INSTANT_MS,
  parsePromQL,
  parseTime,
  PromQLError,
  type QueryBounds,
} from '../../src/index.js';

const refusal = (query: string, bounds?: QueryBounds): PromQLError => {
  try {
    parsePromQL(query, bounds);
  } catch (err) {
    if (err instanceof PromQLError) return err;
    throw err;
  }
  throw new Error(`${query.slice(0, 50)} was accepted`);
};

const sum = (n: number, term = '1') => Array.from({ length: n }, () => term).join('+');
const nested = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;

describe('query bounds, checked before parsing', () => {
  it.each([
    // issue 37: a 500 (stack overflow in the grammar) and spurious syntax errors
    [sum(3000), /the query has 3000 terms, more than MAX_QUERY_TERMS allows \(500\)/],
    [sum(2000), /2000 terms, more than MAX_QUERY_TERMS allows \(500\)/],
    [nested(5000), /the query nests brackets 5000 deep, more than MAX_QUERY_DEPTH allows \(64\)/],
    ['-'.repeat(3000) + '1', /3001 terms, more than MAX_QUERY_TERMS/],
    [sum(600, 'x or x'), /the query has 1200 terms/],
    [sum(33, 'x'), /the query has 33 selectors, more than MAX_QUERY_SELECTORS allows \(32\)/],
    [
      'x{a="' + 'a'.repeat(20_000) + '"}',
      /the query has 20007 characters, more than MAX_QUERY_LENGTH allows \(16384\)/,
    ],
  ])('refuses %#, naming the setting', (query, message) => {
    const err = refusal(query);
    expect(err.code).toBe('PROMQL_BOUND_EXCEEDED');
    expect(err.errorType).toBe('bad_data');
    expect(err.message).toMatch(message);
  });

  it('counts neither brackets nor operators inside strings, comments or label matchers', () => {
    const bounds = {
      ...DEFAULT_QUERY_BOUNDS,
      depth: { limit: 2, setting: 'D' },
      terms: { limit: 2, setting: 'T' },
    };
    expect(() => parsePromQL('x{a="((((+-+-", b!="-"} + 1e-5 # ((((+', bounds)).not.toThrow();
    expect(refusal('x + 1 + 2', bounds).message).toMatch(/3 terms, more than T allows \(2\)/);
  });

  it('answers what Prometheus accepts within the bounds', () => {
    expect(parsePromQL(sum(500))).toMatchObject({ kind: 'binary', op: '+' });
    expect(parsePromQL(nested(64))).toEqual({ kind: 'number', value: 1 });
    expect(parsePromQL(sum(32, 'x'))).toMatchObject({ kind: 'binary' });
  });

  it('keeps the ceilings below the depth where the grammar fails', () => {
    // The deepest tree the ceilings allow: nested function calls, then a chain of terms.
    let query = sum(CEILINGS.terms);
    for (let i = 0; i < CEILINGS.depth; i++) query = `sum(${query})`;
    const errors: number[] = [];
    parser.parse(query).iterate({
      enter: (node) => {
        if (node.type.isError) errors.push(node.from);
      },
    });
    expect(errors).toEqual([]);
    const high: QueryBounds = {
      length: { limit: 1e6, setting: 'L' },
      depth: { limit: CEILINGS.depth, setting: 'D' },
      terms: { limit: CEILINGS.terms, setting: 'T' },
      selectors: { limit: 10, setting: 'S' },
    };
    expect(parsePromQL(query, high)).toMatchObject({ kind: 'aggregate' });
  });
});

describe('parseTime', () => {
  it.each([
    ['1795255200', 1795255200_000],
    ['1795255200.5', 1795255200_500],
    ['1.7952552e9', 1795255200_000],
    ['-1', -1000],
    ['2026-11-21T10:00:00Z', Date.UTC(2026, 10, 21, 10)],
    ['253402300799.999', MAX_INSTANT_MS],
  ])('reads %s as Prometheus does', (text, ms) => {
    expect(parseTime(text, 'time')).toBe(ms);
  });

  it.each(['1e20', '9999999999999999', '-1e15', 'NaN', 'Inf', '', 'soon', '1e400'])(
    'refuses %s with a 400, never an invalid date',
    (text) => {
      expect(() => parseTime(text, 'time')).toThrow(/invalid parameter "time": cannot parse/);
    },
  );
});
