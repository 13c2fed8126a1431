import {
  checkSecurity,
  durationMs,
  flag,
  kafkaShape,
  loadEnv,
  logLevel,
  mongoDatabase,
  parseEnv,
  positiveInt,
  stackShape,
  type EnvSource,
} from '@tickertape/config';
import { LEVELS, type Level } from '@tickertape/buckets';
import { CEILINGS, DEFAULT_QUERY_BOUNDS } from '@tickertape/promql';
import { DEFAULT_LIMITS } from '@tickertape/query';
import { DEFAULT_PROM_BOUNDS } from './prometheus/bounds.js';
import { DEFAULT_READ_TIMEOUT_MS } from './request-reads.js';
import { LEVEL_FRESHNESS_BUDGETS, ROLLUP_GROUP_PREFIX, TICK_TOPIC } from '@tickertape/topology';
import { z } from 'zod';
import { MetricScope, parseScope, type ScopedToken } from './token-scope.js';

/** Shorter tokens can be guessed; 16 characters of a random alphabet is the floor we accept. */
export const MIN_TOKEN_LENGTH = 16;

const commaList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/**
 * Bearer tokens, comma separated, each alone (every metric) or with a scope after its first `:`
 * (`<token>:weather.*|traffic_speed`, token-scope.ts). `:` cannot be part of a token: RFC 6750's
 * token alphabet has no `:`, `,` or `|`. Issues name the token by position, never by value: a
 * config error is printed and logged, and a token that is merely too short is still a secret.
 */
const apiTokens = () =>
  z.string().transform((text, ctx): ScopedToken[] => {
    const issue = (message: string) =>
      ctx.issues.push({ code: 'custom', input: '[redacted]', message });
    const entries = commaList(text);
    if (entries.length === 0) issue('needs at least one token');
    const tokens: ScopedToken[] = [];
    entries.forEach((entry, i) => {
      const at = entry.indexOf(':');
      const token = (at === -1 ? entry : entry.slice(0, at)).trim();
      if (token.length < MIN_TOKEN_LENGTH)
        issue(
          `token ${i + 1} has ${token.length} characters; each needs at least ${MIN_TOKEN_LENGTH}`,
        );
      const scope = at === -1 ? MetricScope.ALL : parseScope(entry.slice(at + 1));
      if (typeof scope === 'string') issue(`token ${i + 1}: ${scope}`);
      else {
        const known = tokens.find((other) => other.token === token);
        if (known === undefined) tokens.push({ token, scope });
        else if (known.scope.key !== scope.key)
          issue(`token ${i + 1} is given twice with different scopes: give it one`);
      }
    });
    return tokens;
  });

const MIB = 1024 * 1024;
const bytes = () => z.coerce.number().int().nonnegative();

/**
 * `level=ms` pairs, comma separated, over the workers' defaults: `hour=120000` when the hour
 * workers run with FRESHNESS_BUDGET_MS=120000.
 */
const freshnessBudgets = () =>
  z
    .string()
    .default('')
    .transform((text, ctx) => {
      const budgets: Record<Level, number> = { ...LEVEL_FRESHNESS_BUDGETS };
      for (const pair of commaList(text)) {
        const match = /^([a-z]+)=(\d{1,9})$/.exec(pair);
        const level = match?.[1];
        if (!match || level === undefined || !(LEVELS as readonly string[]).includes(level)) {
          ctx.issues.push({
            code: 'custom',
            input: pair,
            message: `"${pair}" is not level=milliseconds with a level of ${LEVELS.join(', ')}`,
          });
          continue;
        }
        budgets[level as Level] = Number(match[2]);
      }
      return budgets;
    });

/** A driver read preference's tag sets: `dc:ny,rack:1;dc:chi` (sets by `;`, tags by `,`). */
const tagSets = () =>
  z
    .string()
    .default('')
    .transform((text, ctx) =>
      text
        .split(';')
        .map((set) => set.trim())
        .filter((set) => set !== '')
        .map((set) => {
          const tags: Record<string, string> = {};
          for (const pair of commaList(set)) {
            const [name, value, ...rest] = pair.split(':');
            if (!name || value === undefined || rest.length > 0)
              ctx.issues.push({
                code: 'custom',
                input: pair,
                message: `"${pair}" is not name:value`,
              });
            else tags[name] = value;
          }
          return tags;
        }),
    );

/** The API's whole configuration, parsed once at start. */
export const apiEnvSchema = z
  .object({
    /**
     * Bearer tokens accepted on /api/* and /prometheus, comma separated, each at least 16
     * characters, each optionally limited to metrics: `<token>:weather.*|traffic_speed`. Never logged.
     */
    API_TOKENS: apiTokens(),
    MONGODB_URI: stackShape.MONGODB_URI,
    /** Database holding the rollup partitions (the workers' MONGODB_DATABASE). */
    MONGODB_DATABASE: mongoDatabase().default('tickertape'),
    /**
     * Only for consumer lag per level. Kafka being down never stops reads: lag is then reported as
     * null, so the service does not probe Kafka at start.
     */
    /** With KAFKA_SSL* and KAFKA_SASL_* for TLS and SASL (docs/security.md). */
    ...kafkaShape,
    /** The topic the rollup workers consume, and their group ids: `<GROUP_PREFIX><level>`. */
    TOPIC: z.string().min(1).default(TICK_TOPIC),
    GROUP_PREFIX: z.string().min(1).default(ROLLUP_GROUP_PREFIX),
    /** Levels whose workers run, comma separated; reads use only these. */
    LEVELS: z
      .string()
      .default(LEVELS.join(','))
      .transform(commaList)
      .pipe(z.array(z.enum(LEVELS)).min(1, 'needs at least one level')),
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(9420),
    /** Loopback by default: exposing the API is a deliberate choice. */
    HOST: z.string().min(1).default('127.0.0.1'),
    /** The reader's limits: what one request may cost (see @tickertape/query limits.ts). */
    MAX_DOCUMENTS: positiveInt().default(DEFAULT_LIMITS.maxDocuments),
    MAX_SERIES: positiveInt().default(DEFAULT_LIMITS.maxSeries),
    MAX_POINTS: positiveInt().default(DEFAULT_LIMITS.maxPoints),
    /**
     * What one request to /prometheus may ask, checked before any parse or read, each refusal a
     * 400 (422 for MAX_ANSWER_SERIES) naming its variable (docs/security.md). Depth and terms have
     * ceilings: past them the PromQL grammar fails on the stack (see @tickertape/promql bounds.ts).
     */
    MAX_QUERY_LENGTH: positiveInt().default(DEFAULT_QUERY_BOUNDS.length.limit),
    MAX_QUERY_DEPTH: positiveInt().max(CEILINGS.depth).default(DEFAULT_QUERY_BOUNDS.depth.limit),
    MAX_QUERY_TERMS: positiveInt().max(CEILINGS.terms).default(DEFAULT_QUERY_BOUNDS.terms.limit),
    MAX_QUERY_SELECTORS: positiveInt().default(DEFAULT_QUERY_BOUNDS.selectors.limit),
    MAX_MATCH_PARAMS: positiveInt().default(DEFAULT_PROM_BOUNDS.matchParams.limit),
    MAX_ANSWER_SERIES: positiveInt().default(DEFAULT_PROM_BOUNDS.answerSeries.limit),
    /**
     * The longest one request may spend reading the database: every read carries it as
     * `maxTimeMS`, and the request's reads are cancelled when its total passes it (the local
     * stand-in ignores `maxTimeMS`); the answer is then a 503 naming this variable. A client that
     * goes away cancels its reads at once, whatever this says (docs/security.md).
     */
    API_READ_TIMEOUT_MS: durationMs().min(100).default(DEFAULT_READ_TIMEOUT_MS),
    /**
     * Where reads go in a replica set (the driver's read preference): `nearest` with
     * READ_PREFERENCE_TAGS lets the API in each data centre read its own members. Away from the
     * primary, every query reads causally after the watermarks it judges finality by (docs/scaling.md).
     */
    READ_PREFERENCE: z
      .enum(['primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest'])
      .default('primary'),
    /** Tag sets in order of preference, `dc:ny;dc:chi` (the last may be empty: `dc:ny;` = any). */
    READ_PREFERENCE_TAGS: tagSets(),
    /** A secondary further behind the primary than this is not read (the driver's floor: 90). */
    MAX_STALENESS_SECONDS: z.coerce.number().int().min(90).optional(),
    /**
     * Bytes of final buckets kept in memory for windows (0: none): overlapping and repeated
     * windows then read the database only for their open slots.
     */
    BUCKET_CACHE_BYTES: bytes().default(256 * MIB),
    /** Bytes of answers kept in memory by query (0: none, and identical queries are not coalesced). */
    ANSWER_CACHE_BYTES: bytes().default(64 * MIB),
    /**
     * How long an open answer is reused in this process at most (its max-age caps it too): the
     * minute level's budget, so no answer is kept longer than the freshest level takes to change.
     */
    ANSWER_REUSE_OPEN_MS: durationMs().default(5000),
    /** How often the finality watermarks are re-read (0: per query). */
    FINALITY_REFRESH_MS: durationMs().max(60_000).default(1000),
    /**
     * Who may keep answers: `private` (only the client's own cache) unless set. Every answer is
     * behind a token (API_TOKENS is required), and a shared cache keying by URL would hand one
     * token's answer to anyone; `public` is an operator's statement that every token reads the
     * same data and that each cache in front authenticates every request (docs/reading-at-scale.md);
     * scoped tokens refuse it (see the check below).
     */
    CACHE_SCOPE: z.enum(['public', 'private']).default('private'),
    /** How long a wholly final answer may be kept by caches: a rebuild's change reaches them after this. */
    FINAL_MAX_AGE_S: positiveInt().default(86_400),
    /** The workers' freshness budgets if not their defaults: how long an open answer may be kept. */
    FRESHNESS_BUDGETS: freshnessBudgets(),
    /**
     * Count every database command and the documents returned in /metrics
     * (tickertape_api_database_*): the driver's command monitoring, which decodes each reply once
     * more — 16 % of the API's throughput on reads that miss the caches, measured; off by default.
     */
    COUNT_DATABASE_COMMANDS: flag().default(false),
    LOG_LEVEL: logLevel(),
    STARTUP_TIMEOUT_MS: positiveInt().default(10_000),
  })
  .check(checkSecurity)
  .check((ctx) => {
    // A shared cache keys answers by URL, not token: one scope's answer would reach another.
    if (ctx.value.CACHE_SCOPE === 'public' && ctx.value.API_TOKENS.some((t) => !t.scope.all))
      ctx.issues.push({
        code: 'custom',
        input: 'CACHE_SCOPE',
        path: ['CACHE_SCOPE'],
        message:
          "is public, but API_TOKENS limits a token to some metrics: a shared cache would serve one token's answers to another; set CACHE_SCOPE=private",
      });
  })
  .check((ctx) => {
    const { READ_PREFERENCE, READ_PREFERENCE_TAGS, MAX_STALENESS_SECONDS } = ctx.value;
    if (READ_PREFERENCE !== 'primary') return;
    for (const [name, given] of [
      ['READ_PREFERENCE_TAGS', READ_PREFERENCE_TAGS.length > 0],
      ['MAX_STALENESS_SECONDS', MAX_STALENESS_SECONDS !== undefined],
    ] as const)
      if (given)
        ctx.issues.push({
          code: 'custom',
          input: name,
          path: [name],
          message: 'applies only to reads away from the primary: set READ_PREFERENCE too',
        });
  });

export type ApiEnv = z.output<typeof apiEnvSchema>;

export function parseApiEnv(source: EnvSource): ApiEnv {
  return parseEnv(apiEnvSchema, source);
}

/** The process's own environment: main's one read of it. */
export function loadApiEnv(): ApiEnv {
  return loadEnv(apiEnvSchema);
}
