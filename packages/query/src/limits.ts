import { cut } from '@tickertape/errors';
import { LEVELS, isLevel, type Level } from '@tickertape/buckets';
import { SeriesKeyError, nameProblem, parseSeriesKey } from '@tickertape/tick';
import type { RollupStore } from '@tickertape/store';
import type { FinalBucketCache } from './final-bucket-cache.js';
import { FinalitySource, type ReadScope } from './finality-source.js';
import { QueryError, QueryErrorCode } from './query-error.js';

/**
 * What one query may cost. Every query plans the documents it will read before reading any, and
 * refuses when the plan is over budget, so no request can make the reader scan unbounded data.
 */
export interface Limits {
  /** Bucket documents one query may examine. */
  maxDocuments: number;
  /** Series one window query may name. */
  maxSeries: number;
  /** Points one range read may return. */
  maxPoints: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxDocuments: 5000,
  maxSeries: 500,
  maxPoints: 10_000,
};

export interface ReaderOptions {
  /** The levels whose workers run; reads use only these. */
  levels?: readonly Level[];
  limits?: Partial<Limits>;
  /** Clock for gaps and freshness; injectable for tests. */
  now?: () => number;
}

export interface ReaderContext {
  levels: readonly Level[];
  limits: Limits;
  now: () => number;
  /** The watermarks reads judge by; read per query when absent. */
  finality?: FinalitySource;
  /** Final buckets kept in memory for windows; none when absent. */
  cache?: FinalBucketCache;
}

export function readerContext(options: ReaderOptions = {}): ReaderContext {
  return {
    levels: LEVELS.filter((level) => (options.levels ?? LEVELS).includes(level)),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    now: options.now ?? Date.now,
  };
}

/** The reader's finality source, or one that reads the watermarks per query. */
export function finalityOf(store: RollupStore, ctx: ReaderContext): FinalitySource {
  return ctx.finality ?? new FinalitySource(store, 0, ctx.now);
}

/** The finality a query judges by and the session its reads take (see FinalitySource). */
export function beginReads(store: RollupStore, ctx: ReaderContext): Promise<ReadScope> {
  return finalityOf(store, ctx).begin();
}

// Year 1970 to 2100, as the workers accept (tick validation).
const MIN_MS = 0;
const MAX_MS = Date.UTC(2100, 0, 1);

export function checkRange(fromMs: number, toMs: number): void {
  for (const [name, value] of [
    ['from', fromMs],
    ['to', toMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < MIN_MS || value > MAX_MS)
      throw new QueryError(
        QueryErrorCode.InvalidRange,
        `${name} must be an instant between 1970 and 2100 (epoch ms or ISO-8601), got ${String(value)}`,
      );
  }
  if (fromMs >= toMs)
    throw new QueryError(
      QueryErrorCode.InvalidRange,
      `from (${new Date(fromMs).toISOString()}) must be before to (${new Date(toMs).toISOString()})`,
    );
}

export function checkLevel(level: string, ctx: ReaderContext): Level {
  if (!isLevel(level) || !ctx.levels.includes(level))
    throw new QueryError(
      QueryErrorCode.UnknownLevel,
      `unknown level ${JSON.stringify(cut(level))}; levels: ${ctx.levels.join(', ')}`,
    );
  return level;
}

export function checkSeries(key: string): void {
  try {
    parseSeriesKey(key);
  } catch (err) {
    // The parser's message names the key already (cut): saying it twice doubled a hostile one.
    throw new QueryError(
      QueryErrorCode.InvalidSeries,
      err instanceof SeriesKeyError
        ? err.message
        : `invalid series key ${JSON.stringify(cut(key))}: ${(err as Error).message}`,
    );
  }
}

/** Names become paths in stored buckets (`f.<field>`, `tags.<key>`): the rule the workers apply to ticks. */
export function checkName(kind: string, name: string): void {
  const problem = nameProblem(name);
  if (problem !== undefined)
    throw new QueryError(
      QueryErrorCode.InvalidName,
      `invalid ${kind} name ${JSON.stringify(cut(name))}: it ${problem}`,
    );
}

export function checkBudget(planned: number, ctx: ReaderContext, what: string): void {
  if (planned > ctx.limits.maxDocuments)
    throw new QueryError(
      QueryErrorCode.ReadBudgetExceeded,
      `${what} would read up to ${planned} documents; the limit is ${ctx.limits.maxDocuments}: narrow the range, use a coarser level, or fewer series`,
    );
}

/** A selection by metric and tags, and the most series it may return. */
export function checkMetricSelection(
  metric: string | undefined,
  tags: Readonly<Record<string, string>>,
  limit: number,
): void {
  // A metric is matched as a value, not used as a path: any non-empty name (e.g. `stock.tick`) is fine.
  if (metric === '') throw new QueryError(QueryErrorCode.InvalidName, 'metric must not be empty');
  for (const key of Object.keys(tags)) checkName('tag', key);
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new QueryError(
      QueryErrorCode.InvalidRange,
      `limit must be a positive integer, got ${limit}`,
    );
}
