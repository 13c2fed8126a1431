import { describe, expect, it } from '@jest/globals';
import { seriesKey } from '@tickertape/tick';
import { MetricScope, ScopeError, parseScope } from '../../src/token-scope.js';

const scopeOf = (text: string) => {
  const scope = parseScope(text);
  if (typeof scope === 'string') throw new Error(scope);
  return scope;
};

describe('metric scopes', () => {
  it.each<[string, string, boolean]>([
    ['traffic', 'traffic', true],
    ['traffic', 'traffic_speed', false],
    ['traffic*', 'traffic_speed', true],
    ['traffic*', 'traffic', true],
    ['weather.*|traffic', 'weather.temp', true],
    ['weather.*|traffic', 'weatherman', false],
    [' weather.* | traffic ', 'traffic', true],
    ['*', 'anything', true],
    ['a|*', 'anything', true],
  ])('%j allows %j: %s', (text, metric, allowed) => {
    expect(scopeOf(text).allows(metric)).toBe(allowed);
  });

  it('keys equal scopes alike, whatever their order, and apart from every other scope', () => {
    expect(scopeOf('b|a*|c').key).toBe(scopeOf('c|a*|b').key);
    expect(scopeOf('a').key).not.toBe(scopeOf('a*').key);
    expect(scopeOf('a|b').key).not.toBe(scopeOf('a').key);
    expect(scopeOf('*').key).toBe(MetricScope.ALL.key);
    expect(scopeOf('a').key).not.toBe(MetricScope.ALL.key);
  });

  it('refuses a series outside by its metric (403), and leaves malformed keys to the reader', () => {
    const scope = scopeOf('traffic');
    expect(() => scope.checkSeries(seriesKey('traffic', { sensor: 's1' }))).not.toThrow();
    let refused: unknown;
    try {
      scope.checkSeries(seriesKey('weather', { city: 'x' }));
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ScopeError);
    expect(refused).toMatchObject({ code: 'forbidden', statusCode: 403, retriable: false });
    expect(() => scope.checkSeries('bad\\key')).not.toThrow();
  });
});
