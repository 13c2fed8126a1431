import { LEVEL_SPECS, type Level, type LevelPolicy } from '@tickertape/buckets';
import { LevelPolicySource, type RollupStore } from '@tickertape/store';
import {
  isSegmentBudgetError,
  type RawPointsResult,
  type SegmentStore,
} from '@tickertape/segments';
import { TickertapeError } from '@tickertape/errors';
import {
  checkLevel,
  checkName,
  checkRange,
  checkSeries,
  readerContext,
  type ReaderContext,
  type ReaderOptions,
} from './limits.js';
import { QueryError, QueryErrorCode } from './query-error.js';
import { checkLevelKept, keptContext, metricOfSeries } from './kept-levels.js';
import type { AnsweredPoint } from './points.js';
import type { Stats } from './stats.js';
import {
  readRange,
  type RangeQuery,
  type RangeReadOptions,
  type RangeResult,
} from './read-range.js';
import { readLocalRange } from './local-range.js';
import type { Resolution } from './resolution.js';
import { chooseResolution, levelResolution, sourceFor, type Detail } from './resolution.js';
import { findSeries, type SeriesQuery, type SeriesResult } from './series.js';
import { seriesStatus, type StatusResult } from './status.js';
import { metricCatalog, type MetricInfo } from './metric-catalog.js';
import type { FinalBucketCache } from './final-bucket-cache.js';
import { FinalitySource } from './finality-source.js';
import { checkNames, checkSelection } from './unknown-names.js';
import { windowAggregate, type WindowQuery, type WindowResult } from './window.js';
import {
  windowByMetric,
  type MetricWindowQuery,
  type MetricWindowResult,
} from './window-by-metric.js';

const DAY_MS = 86_400_000;

/**
 * A read's range widened by a day each side, for the level policy's automatic spans: whatever a
 * read rounds its edges to (steps, local days), the minute level serves it only when no span is
 * near, and the hour level (which holds every minute of a span) otherwise.
 */
function around(query: { fromMs: number; toMs: number }): { fromMs: number; toMs: number } {
  return { fromMs: query.fromMs - DAY_MS, toMs: query.toMs + DAY_MS };
}

/**
 * What an explicit level's read touches, for the level policy's automatic spans: in UTC, only the
 * slots of `level` that overlap the range — and as a span's bounds are whole slots of it, a span
 * overlaps those slots exactly when it overlaps the range. With a zone, a slot of the level each
 * side more, for local slots off the UTC grid (a zone's old offsets in seconds) and the parts of
 * finer levels read at their edges. So a minute read that touches no span is answered by the
 * minute level, where `around` would refuse it within a day of one.
 */
function touched(query: LevelQuery, level: Level): { fromMs: number; toMs: number } {
  const margin = query.tz === undefined ? 0 : LEVEL_SPECS[level].slotMs;
  return { fromMs: query.fromMs - margin, toMs: query.toMs + margin };
}

/** What a long-lived reader (the API) keeps between queries; the CLI and checker keep nothing. */

export interface CacheOptions {
  /** Re-read the watermarks at most this often (0: per query). See FinalitySource. */
  finalityRefreshMs?: number;
  /** Final buckets kept in memory for windows. */
  cache?: FinalBucketCache;
}

/**
 * The stores a reader reads: the rollups, and the segment store of exact raw points for
 * `rawPoints` (without one, `rawPoints` refuses). `openMongoStores` hands out both.
 */
export interface ReaderStores {
  rollups: RollupStore;
  segments?: SegmentStore;
}

export interface AutoQuery extends RangeQuery {
  /** Most points wanted; the finest width that fits is chosen. */
  maxPoints: number;
}

export interface SteppedQuery extends RangeQuery {
  /** Width of each point: a native width (a second, minute, hour or day). */
  stepMs: number;
  /**
   * Read the quantile sketches too (hour and day slots from their sub-slots, the same documents):
   * for quantile_over_time. Each point keeps its merged parts (`parts`) either way.
   */
  sketches?: boolean;
}

export interface LevelQuery extends RangeQuery {
  level: string;
  /** `slot`: one point per bucket; `sub`: one per second/minute/hour inside each bucket. */
  detail: Detail;
}

export interface Candle extends Stats {
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Ticks in the candle; `null` at second width. */
  volume: number | null;
  final: boolean;
  /** With a time zone: the candle's local step's end (UTC) and its start in wall time. */
  end?: number;
  local?: string;
}

export interface CandleResult extends Omit<RangeResult, 'points'> {
  candles: Candle[];
}

export function candleOf(point: AnsweredPoint): Candle {
  const { variance, stddev, quantiles, weighted, coverage } = point;
  return {
    t: point.t,
    open: point.open,
    high: point.max,
    low: point.min,
    close: point.close,
    volume: point.n,
    variance,
    stddev,
    ...(quantiles === undefined ? {} : { quantiles }),
    ...(weighted === undefined ? {} : { weighted }),
    coverage,
    final: point.final,
    ...(point.end === undefined ? {} : { end: point.end, local: point.local }),
  };
}

/**
 * The read path in one object: what the API, the CLI and the checker call. Callers never name
 * a collection; every query plans its reads and refuses over-budget ones before reading.
 */
export class RollupReader {
  readonly ctx: ReaderContext;
  /** Re-read every few seconds: a policy change reaches readers about when it reaches writers. */
  private readonly policy: LevelPolicySource;

  /** The watermarks reads judge by, shared by the queries of `finalityRefreshMs`. */
  readonly finality: FinalitySource;

  // Not readonly: `withSignal` gives a view its own, bound to a request's signal.
  private store: RollupStore;
  private readonly segments: SegmentStore | undefined;

  constructor(stores: ReaderStores, options: ReaderOptions & CacheOptions = {}) {
    this.store = stores.rollups;
    this.segments = stores.segments;
    const base = readerContext(options);
    this.finality = new FinalitySource(this.store, options.finalityRefreshMs ?? 0, base.now);
    this.ctx = {
      ...base,
      finality: this.finality,
      ...(options.cache ? { cache: options.cache } : {}),
    };
    this.policy = new LevelPolicySource(this.store, 5_000, this.ctx.now);
  }

  /** The weight field of `field` in `series`' metric, if the level policy weights it. */
  private async weightOf(field: string): Promise<(series: string) => string | undefined> {
    const policy = await this.policy.current();
    return (series) => policy.weightOf(metricOfSeries(series), field);
  }

  /** The weight of one series' field, as the range reads take it. */
  private async rangeOptions(query: RangeQuery): Promise<RangeReadOptions> {
    const weight = (await this.weightOf(query.field))(query.series);
    return weight === undefined ? {} : { weight };
  }

  /** The context narrowed to the levels that keep these series' metrics (over `range` when given). */
  private async keptFor(
    series: Iterable<string>,
    range?: { fromMs: number; toMs: number },
  ): Promise<ReaderContext> {
    const metrics = [...series].map(metricOfSeries);
    return keptContext(this.ctx, await this.policy.current(), metrics, range);
  }

  /**
   * This reader for one request: every rollup read through the store bound to `signal`
   * (RollupStore.withSignal), so once it aborts no read starts and one under way is cancelled,
   * rejecting with the store's ReadAbortedError (or the caller's ReadTimeoutError). Everything
   * else — finality, level policy, caches — is this reader's, shared.
   */
  withSignal(signal: AbortSignal): RollupReader {
    const view = Object.create(this) as RollupReader;
    view.store = this.store.withSignal(signal);
    return view;
  }

  get levels(): readonly Level[] {
    return this.ctx.levels;
  }

  // Methods are async so that a refusal is always a rejected promise, never a synchronous throw.

  /** One series at one level, read whole buckets or their sub-slots. */
  async range(query: LevelQuery): Promise<RangeResult> {
    const level = checkLevel(query.level, this.ctx);
    const ctx = await this.keptFor([query.series], touched(query, level));
    checkLevelKept(level, metricOfSeries(query.series), ctx);
    return this.named(
      ctx,
      await this.read(
        ctx,
        query,
        levelResolution(level, query.detail),
        await this.rangeOptions(query),
      ),
    );
  }

  /** A range without a point is checked for a misspelt series or field (unknown-names.ts). */
  private async named(ctx: ReaderContext, result: RangeResult): Promise<RangeResult> {
    if (result.points.length === 0)
      await checkNames(this.store, ctx, {
        empty: [result.series],
        field: result.field,
        fromMs: result.fromMs,
        toMs: result.toMs,
      });
    return result;
  }

  /** One series at the finest width that fits `maxPoints`, read from the cheapest level. */
  async auto(query: AutoQuery): Promise<RangeResult> {
    const ctx = await this.keptFor([query.series], around(query));
    return this.named(
      ctx,
      await this.read(
        ctx,
        query,
        chooseResolution(
          query.fromMs,
          query.toMs,
          Math.min(query.maxPoints, ctx.limits.maxPoints),
          ctx.levels,
        ),
        await this.rangeOptions(query),
      ),
    );
  }

  /** A range in UTC steps, or with `tz` in the zone's local steps (a level's width, for `range`). */
  private read(
    ctx: ReaderContext,
    query: RangeQuery,
    resolution: Resolution,
    options: RangeReadOptions,
  ): Promise<RangeResult> {
    const { tz } = query;
    return tz === undefined
      ? readRange(this.store, ctx, query, resolution, options)
      : readLocalRange(this.store, ctx, { ...query, tz }, resolution, options);
  }

  /**
   * One series at exactly `stepMs` (a native width), read from the cheapest level that keeps
   * the series' metric: what PromQL's range functions sum (their ranges are whole widths).
   */
  async stepped(query: SteppedQuery): Promise<RangeResult> {
    const ctx = await this.keptFor([query.series], around(query));
    const source = sourceFor(query.stepMs, ctx.levels);
    if (!source)
      throw new QueryError(
        QueryErrorCode.NoResolution,
        `no running level keeps ${query.stepMs} ms points of ${metricOfSeries(query.series)}`,
      );
    return readRange(
      this.store,
      ctx,
      query,
      { stepMs: query.stepMs, source },
      {
        ...(await this.rangeOptions(query)),
        // PromQL merges the points further (quantile_over_time over sliding ranges): their parts.
        keepParts: true,
        ...(query.sketches === true ? { sketches: true } : {}),
      },
    );
  }

  /** The metrics with data in a range, with a sample of their field and tag names. */
  async metrics(range: { fromMs: number; toMs: number }): Promise<MetricInfo[]> {
    return metricCatalog(this.store, this.ctx, range);
  }

  /** Open/high/low/close at the automatic width (e.g. 5-minute candles over a day). */
  async candles(query: AutoQuery): Promise<CandleResult> {
    const { points, ...rest } = await this.auto(query);
    return { ...rest, candles: points.map(candleOf) };
  }

  async window(query: WindowQuery): Promise<WindowResult> {
    const ctx = await this.keptFor(query.series, around(query));
    const result = await windowAggregate(this.store, ctx, query, await this.weightOf(query.field));
    await checkNames(this.store, ctx, {
      empty: result.rows.filter((row) => row.n === 0).map((row) => row.series),
      field: result.field,
      fromMs: result.fromMs,
      toMs: result.toMs,
    });
    return result;
  }

  /** The same totals for the series of one metric (and tags), found in the window's own buckets. */
  async windowByMetric(query: MetricWindowQuery): Promise<MetricWindowResult> {
    const ctx = keptContext(this.ctx, await this.policy.current(), [query.metric], around(query));
    const result = await windowByMetric(this.store, ctx, query, await this.weightOf(query.field));
    const range = { fromMs: result.fromMs, toMs: result.toMs };
    if (result.rows.length === 0)
      await checkSelection(this.store, ctx, { ...query, tags: query.tags ?? {}, ...range });
    await checkNames(this.store, ctx, {
      empty: result.rows.filter((row) => row.n === 0).map((row) => row.series),
      field: result.field,
      ...range,
    });
    return result;
  }

  async series(query: SeriesQuery): Promise<SeriesResult> {
    return findSeries(this.store, this.ctx, query);
  }

  async status(series: string): Promise<StatusResult> {
    return seriesStatus(this.store, await this.keptFor([series]), series);
  }

  /**
   * Exact raw points of one series from the segment store (not the rollups: the name says so),
   * with the nearest point on each side of the range (for charts that draw to the edges).
   * `field` narrows the values returned.
   */
  async rawPoints(query: {
    series: string;
    fromMs: number;
    toMs: number;
    field?: string;
  }): Promise<RawPointsResult> {
    checkRange(query.fromMs, query.toMs);
    checkSeries(query.series);
    if (query.field !== undefined) checkName('field', query.field);
    if (this.segments === undefined)
      throw new TickertapeError(
        'QUERY_NO_SEGMENT_STORE',
        'this reader was made without a segment store: raw points cannot be read',
        { retriable: false },
      );
    try {
      return await this.segments.readPoints(query, { maxDocuments: this.ctx.limits.maxDocuments });
    } catch (err) {
      // The segment store's refusal is the query's: the same code and 4xx as every read budget.
      if (isSegmentBudgetError(err))
        throw new QueryError(QueryErrorCode.ReadBudgetExceeded, err.message);
      throw err;
    }
  }

  /**
   * What every answer of this reader depends on besides its query: the levels' generations (a
   * swap or retention drop changes final buckets) and the level policy (which levels serve). An
   * answer kept under a query and this key is the answer to that query now, as far as final
   * buckets go.
   */
  async answerKey(): Promise<string> {
    const [view, policy] = await Promise.all([this.finality.current(), this.policy.current()]);
    return `${view.generationKey}|${policy.key}`;
  }

  /** Which levels skip or keep compact which metrics (re-read every few seconds). */
  async levelPolicy(): Promise<LevelPolicy> {
    return this.policy.current();
  }

  /** Each running level's finality watermark (`finalBefore`); absent before the scheduler's first run. */
  async watermarks(): Promise<Partial<Record<Level, number>>> {
    const view = await this.finality.current();
    return Object.fromEntries(
      this.ctx.levels.flatMap((level) => {
        const mark = view.finalBefore(level);
        return mark === null ? [] : [[level, mark]];
      }),
    );
  }
}
