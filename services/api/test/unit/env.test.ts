import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { DEFAULT_LIMITS } from '@tickertape/query';
import { parseApiEnv } from '../../src/env.js';
import { MetricScope } from '../../src/token-scope.js';

const TOKEN = 'a-token-of-24-characters';
const base = {
  API_TOKENS: TOKEN,
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
  KAFKA_BROKERS: '127.0.0.1:19092',
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    parseApiEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('the environment was accepted');
}

describe('api env', () => {
  it('defaults everything but the tokens and the two addresses', () => {
    expect(parseApiEnv(base)).toEqual({
      API_TOKENS: [{ token: TOKEN, scope: MetricScope.ALL }],
      MONGODB_URI: base.MONGODB_URI,
      MONGODB_DATABASE: 'tickertape',
      KAFKA_BROKERS: ['127.0.0.1:19092'],
      KAFKA_SSL: false,
      KAFKA_SSL_REJECT_UNAUTHORIZED: true,
      TOPIC: 'raw-ticks',
      GROUP_PREFIX: 'tickertape-rollup-',
      LEVELS: ['minute', 'hour', 'day'],
      HTTP_PORT: 9420,
      HOST: '127.0.0.1',
      MAX_DOCUMENTS: DEFAULT_LIMITS.maxDocuments,
      MAX_SERIES: DEFAULT_LIMITS.maxSeries,
      MAX_POINTS: DEFAULT_LIMITS.maxPoints,
      MAX_QUERY_LENGTH: 16_384,
      MAX_QUERY_DEPTH: 64,
      MAX_QUERY_TERMS: 500,
      MAX_QUERY_SELECTORS: 32,
      MAX_MATCH_PARAMS: 64,
      MAX_ANSWER_SERIES: 500,
      API_READ_TIMEOUT_MS: 30_000,
      READ_PREFERENCE: 'primary',
      READ_PREFERENCE_TAGS: [],
      BUCKET_CACHE_BYTES: 256 * 1024 * 1024,
      ANSWER_CACHE_BYTES: 64 * 1024 * 1024,
      ANSWER_REUSE_OPEN_MS: 5000,
      FINALITY_REFRESH_MS: 1000,
      CACHE_SCOPE: 'private',
      FINAL_MAX_AGE_S: 86_400,
      FRESHNESS_BUDGETS: { minute: 5_000, hour: 60_000, day: 60_000 },
      COUNT_DATABASE_COMMANDS: false,
      LOG_LEVEL: 'info',
      STARTUP_TIMEOUT_MS: 10_000,
    });
  });

  it('reads the read preference, its tag sets and staleness, and budgets over the defaults', () => {
    const env = parseApiEnv({
      ...base,
      READ_PREFERENCE: 'nearest',
      READ_PREFERENCE_TAGS: 'dc:ny,rack:r1; dc:chi ;',
      MAX_STALENESS_SECONDS: '120',
      FRESHNESS_BUDGETS: 'hour=120000',
      BUCKET_CACHE_BYTES: '0',
    });
    expect(env.READ_PREFERENCE_TAGS).toEqual([{ dc: 'ny', rack: 'r1' }, { dc: 'chi' }]);
    expect(env.MAX_STALENESS_SECONDS).toBe(120);
    expect(env.FRESHNESS_BUDGETS).toEqual({ minute: 5_000, hour: 120_000, day: 60_000 });
    expect(env.BUCKET_CACHE_BYTES).toBe(0);
  });

  it('keeps answers private unless public is set: every answer is behind a token', () => {
    expect(parseApiEnv(base).CACHE_SCOPE).toBe('private');
    expect(parseApiEnv({ ...base, CACHE_SCOPE: 'public' }).CACHE_SCOPE).toBe('public');
    expect(parseApiEnv({ ...base, CACHE_SCOPE: 'private' }).CACHE_SCOPE).toBe('private');
  });

  it('splits tokens and levels on commas, trimming blanks', () => {
    const env = parseApiEnv({
      ...base,
      API_TOKENS: ` ${TOKEN} ,, second-token-0123456789 `,
      LEVELS: 'minute, hour',
      HTTP_PORT: '0',
      MAX_POINTS: '500',
    });
    expect(env.API_TOKENS.map((t) => t.token)).toEqual([TOKEN, 'second-token-0123456789']);
    expect(env.LEVELS).toEqual(['minute', 'hour']);
    expect(env.HTTP_PORT).toBe(0);
    expect(env.MAX_POINTS).toBe(500);
  });

  it.each<[string, Record<string, string>, string]>([
    ['tokens missing', { API_TOKENS: '' }, 'API_TOKENS'],
    ['only separators', { API_TOKENS: ' , ' }, 'API_TOKENS'],
    ['an unknown level', { LEVELS: 'minute,week' }, 'LEVELS'],
    ['no level', { LEVELS: ',' }, 'LEVELS'],
    ['a port out of range', { HTTP_PORT: '70000' }, 'HTTP_PORT'],
    ['a zero budget', { MAX_DOCUMENTS: '0' }, 'MAX_DOCUMENTS'],
    ['a fractional limit', { MAX_SERIES: '2.5' }, 'MAX_SERIES'],
    // Past these ceilings the PromQL grammar fails on the stack: no setting may allow it.
    ['a depth over the ceiling', { MAX_QUERY_DEPTH: '201' }, 'MAX_QUERY_DEPTH'],
    ['terms over the ceiling', { MAX_QUERY_TERMS: '1001' }, 'MAX_QUERY_TERMS'],
    ['no match[] at all', { MAX_MATCH_PARAMS: '0' }, 'MAX_MATCH_PARAMS'],
    ['a broker without port', { KAFKA_BROKERS: 'kafka' }, 'KAFKA_BROKERS'],
    ['a bad database name', { MONGODB_DATABASE: 'a/b' }, 'MONGODB_DATABASE'],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['an unknown read preference', { READ_PREFERENCE: 'closest' }, 'READ_PREFERENCE'],
    [
      'a tag without value',
      { READ_PREFERENCE: 'nearest', READ_PREFERENCE_TAGS: 'dc' },
      'READ_PREFERENCE_TAGS',
    ],
    [
      'staleness under the driver floor',
      { READ_PREFERENCE: 'nearest', MAX_STALENESS_SECONDS: '30' },
      'MAX_STALENESS_SECONDS',
    ],
    ['tags while reading the primary', { READ_PREFERENCE_TAGS: 'dc:ny' }, 'READ_PREFERENCE_TAGS'],
    [
      'staleness while reading the primary',
      { MAX_STALENESS_SECONDS: '90' },
      'MAX_STALENESS_SECONDS',
    ],
    ['a budget of an unknown level', { FRESHNESS_BUDGETS: 'week=1000' }, 'FRESHNESS_BUDGETS'],
    ['a negative cache', { ANSWER_CACHE_BYTES: '-1' }, 'ANSWER_CACHE_BYTES'],
    ['an unknown cache scope', { CACHE_SCOPE: 'shared' }, 'CACHE_SCOPE'],
    // Under 100 ms every honest read would time out.
    ['a read budget too short to read', { API_READ_TIMEOUT_MS: '50' }, 'API_READ_TIMEOUT_MS'],
    ['a read budget that is not a number', { API_READ_TIMEOUT_MS: '30s' }, 'API_READ_TIMEOUT_MS'],
    ['a cache scope in capitals', { CACHE_SCOPE: 'PUBLIC' }, 'CACHE_SCOPE'],
  ])('refuses %s, naming the variable', (_case, over, variable) => {
    expect(refusal({ ...base, ...over }).variables.map((v) => v.split('.')[0])).toEqual([variable]);
  });

  it('reads the Kafka security settings for lag, checked against each other', () => {
    const sasl = {
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'api',
      KAFKA_SASL_PASSWORD: 'api-sasl-password',
    };
    expect(parseApiEnv({ ...base, ...sasl })).toMatchObject({
      KAFKA_SSL: true,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
    });
    const err = refusal({ ...base, ...sasl, KAFKA_SASL_USERNAME: '' });
    expect(err.variables).toEqual(['KAFKA_SASL_USERNAME']);
    expect(err.message).not.toContain('api-sasl-password');
  });

  it('names a short token by position and length, never by value', () => {
    const err = refusal({ ...base, API_TOKENS: `${TOKEN},hunter2` });
    expect(err.message).toContain('API_TOKENS: token 2 has 7 characters; each needs at least 16');
    expect(err.message).not.toContain('hunter2');
    expect(err.message).not.toContain(TOKEN);
    expect(JSON.stringify(err.issues)).not.toContain('hunter2');
  });

  describe('scoped tokens', () => {
    const TEAM = 'team-token-0123456789abcdef';

    it('reads `<token>:<names and prefixes>` beside plain tokens, which read everything', () => {
      const env = parseApiEnv({
        ...base,
        API_TOKENS: `${TOKEN}, ${TEAM}:weather.*|traffic_speed ,wide-token-0123456789:*`,
        CACHE_SCOPE: 'private',
      });
      const [plain, team, wide] = env.API_TOKENS;
      expect(plain).toEqual({ token: TOKEN, scope: MetricScope.ALL });
      expect(team?.token).toBe(TEAM);
      expect(wide?.scope.all).toBe(true);
      const scope = team!.scope;
      expect(scope.all).toBe(false);
      for (const metric of ['traffic_speed', 'weather.temp', 'weather.'])
        expect(scope.allows(metric)).toBe(true);
      for (const metric of ['traffic', 'traffic_speed2', 'weather', 'other.weather.temp'])
        expect(scope.allows(metric)).toBe(false);
    });

    it.each([
      ['an empty scope', `${TEAM}:`, "token 2: its scope's entry 1 is empty"],
      ['an empty entry', `${TEAM}:a||b`, "token 2: its scope's entry 2 is empty"],
      [
        'a * inside a name',
        `${TEAM}:we*ather`,
        "token 2: its scope's entry 1 has a * before its end",
      ],
      ['a short token before its scope', 'short:weather', 'token 2 has 5 characters'],
      [
        'one token with two scopes',
        `${TEAM}:a,${TEAM}:b`,
        'token 3 is given twice with different scopes',
      ],
    ])('stops at start on %s, naming API_TOKENS and never a token', (_case, tokens, message) => {
      const err = refusal({ ...base, API_TOKENS: `${TOKEN},${tokens}`, CACHE_SCOPE: 'private' });
      expect(err.variables).toEqual(['API_TOKENS']);
      expect(err.message).toContain(`API_TOKENS: ${message}`);
      for (const secret of [TOKEN, TEAM, 'short']) expect(err.message).not.toContain(secret);
    });

    it('accepts one token given twice with one scope', () => {
      const env = parseApiEnv({
        ...base,
        API_TOKENS: `${TEAM}:b|a,${TEAM}:a|b`,
        CACHE_SCOPE: 'private',
      });
      expect(env.API_TOKENS).toHaveLength(1);
    });

    it('refuses CACHE_SCOPE=public with a scoped token: a shared cache keys by URL, not token', () => {
      const scoped = { ...base, API_TOKENS: `${TOKEN},${TEAM}:weather.*` };
      // Private, the default, is what a scoped token needs; public must be set, and is refused.
      expect(parseApiEnv(scoped).CACHE_SCOPE).toBe('private');
      const err = refusal({ ...scoped, CACHE_SCOPE: 'public' });
      expect(err.variables).toEqual(['CACHE_SCOPE']);
      expect(err.message).toContain('set CACHE_SCOPE=private');
      expect(err.message).not.toContain(TEAM);
    });
  });
});
