import { describe, expect, it } from '@jest/globals';
import { anchored, matchesValue, parsePromQL, PromQLError } from '../../src/index.js';

const refusal = (query: string): PromQLError => {
  try {
    parsePromQL(query);
  } catch (err) {
    if (err instanceof PromQLError) return err;
    throw err;
  }
  throw new Error(`${query} was accepted`);
};

describe('regex matchers: RE2, as Prometheus', () => {
  it.each([
    // Prometheus' dialect, which JavaScript's RegExp refused (issue 37's two differences).
    ['(?i)acme', 'ACME', true],
    ['(?i)acme', 'Acme', true],
    ['acme', 'ACME', false],
    ['[[:alpha:]]{3}', 'abc', true],
    ['[[:alpha:]]{3}', 'ab1', false],
    ['\\pL+', 'émile', true],
    ['\\d+', '٣', false], // RE2's \d is ASCII only
    // Anchored at both ends, whatever the pattern says.
    ['I80', 'I80_mile01', false],
    ['I80.*', 'I80_mile01', true],
    ['a|ab', 'ab', true],
    ['mile01', 'I80_mile01', false],
    // `.` matches a newline, as Prometheus 3's `^(?s:…)$`.
    ['a.b', 'a\nb', true],
    ['', '', true],
    ['', 'x', false],
  ])('%s on %j is %s', (pattern, value, expected) => {
    expect(anchored(pattern).test(value)).toBe(expected);
    expect(matchesValue({ label: 'l', op: '=~', value: pattern }, value)).toBe(expected);
    expect(matchesValue({ label: 'l', op: '!~', value: pattern }, value)).toBe(!expected);
  });

  it.each([
    ['x{a=~"a(?=b)"}', /invalid regular expression "a\(\?=b\)": .*Perl syntax/],
    ['x{a=~"a(?!b)"}', /invalid regular expression/],
    ['x{a=~"(?<=a)b"}', /invalid regular expression/],
    ['x{a=~"(a)\\\\1"}', /invalid regular expression "\(a\)\\\\1": .*escape/],
    ['x{a!~"["}', /invalid regular expression/],
  ])('refuses %s, as RE2 does', (query, message) => {
    const err = refusal(query);
    expect(err.code).toBe('PROMQL_BAD_PARAMETER');
    expect(err.errorType).toBe('bad_data');
    expect(err.message).toMatch(message);
  });

  it('matches a{4}(a+)+ in linear time (backtracking took 1.8 s at 31 characters, doubling each)', () => {
    const re = anchored('a{4}(a+)+');
    const started = performance.now();
    expect(re.test(`${'a'.repeat(30)}!`)).toBe(false);
    expect(re.test(`${'a'.repeat(10_000)}!`)).toBe(false);
    expect(re.test('a'.repeat(10_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('cuts a long pattern in its refusal', () => {
    const err = refusal(`x{a=~"(${'a'.repeat(5000)}"}`);
    expect(err.message.length).toBeLessThan(400);
    expect(err.message).toContain('(5001 characters)');
  });
});
