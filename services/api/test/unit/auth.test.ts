import { describe, expect, it } from '@jest/globals';
import { bearerToken, tokenMatcher, tokenScopes } from '../../src/auth.js';
import { MetricScope } from '../../src/token-scope.js';

describe('bearer tokens', () => {
  it.each<[string | undefined, string | undefined]>([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    [undefined, undefined],
    ['', undefined],
    ['Bearer', undefined],
    ['Bearer ', undefined],
    ['Basic abc', undefined],
    ['Bearer a b', undefined],
    ['abc', undefined],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it('matches any configured token exactly, whatever the lengths', () => {
    const matches = tokenMatcher(['first-token-0123456789', 'second-token-0123456789']);
    expect(matches('first-token-0123456789')).toBe(true);
    expect(matches('second-token-0123456789')).toBe(true);
    for (const other of ['', 'first', 'first-token-01234567890', 'FIRST-TOKEN-0123456789'])
      expect(matches(other)).toBe(false);
    expect(tokenMatcher([])('anything')).toBe(false);
  });

  it('gives an accepted token its own scope, and a plain one every metric', () => {
    const team = MetricScope.of(['traffic'], ['weather.']);
    const scopes = tokenScopes([
      'plain-token-0123456789',
      { token: 'team-token-0123456789', scope: team },
    ]);
    expect(scopes('plain-token-0123456789')).toBe(MetricScope.ALL);
    expect(scopes('team-token-0123456789')).toBe(team);
    expect(scopes('team-token-012345678')).toBeUndefined();
  });
});
