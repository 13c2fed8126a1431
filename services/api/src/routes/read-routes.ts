import { floorTo } from '@tickertape/buckets';
import { DEFAULT_MAX_POINTS, fillRange, windowInZone } from '@tickertape/query';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { REVALIDATE } from '../http-caching.js';
import { countExamined } from '../metrics.js';
import {
  SERIES_LIMIT_DEFAULT,
  candlesQuerySchema,
  pointsQuerySchema,
  rawQuerySchema,
  seriesQuerySchema,
  windowQuerySchema,
} from '../query-schemas.js';
import { readRange, seriesRange, windowRange } from '../ranges.js';
import { READ_SHAPES, rawShape } from '../formats/read-shapes.js';
import { represent, type ReadShape } from '../formats/represent.js';
import {
  readAnswers,
  namedReadAnswers,
  candlesSchema,
  pointsSchema,
  rawSchema,
  seriesListSchema,
  tabularAnswer,
  windowSchema,
} from '../response-schemas.js';
import { sendAnswer, type Answering } from './answers.js';
import { isRelativeRead, readTimes } from '../time-params.js';
import { BEARER } from './openapi-routes.js';
import { seriesInScope } from './series-in-scope.js';
import { scopeOf } from '../token-scope.js';
import { readerFor } from '../request-reads.js';

export type ReadRouteOptions = Answering;

const MINUTE_MS = 60_000;

/** A range ending now moves with the clock: its answer is reused for a second at most. */
const CLOCK_RANGE_REUSE_MS = 1000;

/**
 * The five reads. Each one goes through the reader, which plans its documents and refuses an
 * over-budget plan before reading: no route here reads the database itself. The rollup reads
 * answer through `sendAnswer` (kept answers, ETag, Cache-Control by finality); series lists and
 * raw points cannot say when they change, so they carry an ETag and revalidate. Each answers
 * JSON, CSV or an Arrow stream of the same rows (`format=` or Accept; formats/). Each reads
 * only the token's metrics (token-scope.ts): a series or metric named outside them is a 403.
 */
export const readRoutes: FastifyPluginCallbackZod<ReadRouteOptions> = (api, options, done) => {
  const { reader, now, metrics } = options;
  const counted = <T extends { examined: number }>(
    request: FastifyRequest,
    reply: FastifyReply,
    result: T,
    shape: ReadShape<T>,
  ) => {
    void reply.header('cache-control', REVALIDATE);
    return represent(request, reply, countExamined(metrics, request, result), shape);
  };
  /** A range without `to` ends now: answers are kept for a second, under their resolved bounds. */
  const clockRange = (fromMs: number, toMs: number) => ({
    fromMs,
    toMs,
    movesAtMs: now() + CLOCK_RANGE_REUSE_MS,
  });
  /**
   * A range ending now by default, or with a time relative to now (`-1h`, `now`), moves with the
   * clock: its answer is never final, whatever the levels say.
   */
  const movesWithClock = (request: FastifyRequest, query: { to?: number | undefined }) =>
    query.to === undefined || isRelativeRead(request);
  // Times as the CLI reads them: relative ones from this clock, wall times in tz (time-params.ts).
  const preValidation = readTimes(now);

  api.get(
    '/series',
    {
      schema: {
        summary: 'Series with data in a range, by metric and tags',
        tags: ['read'],
        security: BEARER,
        querystring: seriesQuerySchema,
        response: { 200: tabularAnswer(seriesListSchema, 'one row per series'), ...readAnswers },
      },
      preValidation,
    },
    async (request, reply) => {
      const { metric, tag, from, to, limit } = request.query;
      const range = seriesRange(from, to, now());
      const result = await seriesInScope(readerFor(reader, request), scopeOf(request), {
        metric,
        tags: tag,
        ...range,
        limit,
      });
      return counted(request, reply, result, READ_SHAPES.series);
    },
  );

  api.get(
    '/points',
    {
      schema: {
        summary: 'One field of one series over a range, at automatic resolution or one level',
        tags: ['read'],
        security: BEARER,
        querystring: pointsQuerySchema,
        response: { 200: tabularAnswer(pointsSchema, 'one row per point'), ...namedReadAnswers },
      },
      preValidation,
    },
    async (request, reply) => {
      const { series, field, from, to, maxPoints, level, detail, tz, fill, quantile } =
        request.query;
      scopeOf(request).checkSeries(series);
      const query = {
        series,
        field,
        ...readRange(from, to, now()),
        ...(tz ? { tz } : {}),
        ...(quantile === undefined ? {} : { quantiles: quantile }),
      };
      return sendAnswer(options, request, reply, {
        ...(movesWithClock(request, request.query)
          ? { relative: clockRange(query.fromMs, query.toMs) }
          : {}),
        shape: READ_SHAPES.points,
        read: async () => {
          const result = await (level === undefined
            ? readerFor(reader, request).auto({
                ...query,
                maxPoints: maxPoints ?? DEFAULT_MAX_POINTS,
              })
            : readerFor(reader, request).range({ ...query, level, detail: detail ?? 'slot' }));
          return fill === undefined ? result : fillRange(result, fill, now());
        },
      });
    },
  );

  api.get(
    '/candles',
    {
      schema: {
        summary: 'Open/high/low/close candles of one field at automatic resolution',
        tags: ['read'],
        security: BEARER,
        querystring: candlesQuerySchema,
        response: { 200: tabularAnswer(candlesSchema, 'one row per candle'), ...namedReadAnswers },
      },
      preValidation,
    },
    async (request, reply) => {
      const { series, field, from, to, maxPoints, tz, quantile } = request.query;
      scopeOf(request).checkSeries(series);
      const { fromMs, toMs } = readRange(from, to, now());
      return sendAnswer(options, request, reply, {
        ...(movesWithClock(request, request.query) ? { relative: clockRange(fromMs, toMs) } : {}),
        shape: READ_SHAPES.candles,
        read: () =>
          readerFor(reader, request).candles({
            series,
            field,
            fromMs,
            toMs,
            maxPoints: maxPoints ?? DEFAULT_MAX_POINTS,
            ...(tz ? { tz } : {}),
            ...(quantile === undefined ? {} : { quantiles: quantile }),
          }),
      });
    },
  );

  api.get(
    '/window',
    {
      schema: {
        summary:
          'Count, sum, average, min, max, first, last, spread, quantiles and weighted average of a field over a window, per series',
        tags: ['read'],
        security: BEARER,
        querystring: windowQuerySchema,
        response: { 200: tabularAnswer(windowSchema, 'one row per series'), ...namedReadAnswers },
      },
      preValidation,
    },
    async (request, reply) => {
      const { series, metric, tag, limit, field, tz, quantile } = request.query;
      const scope = scopeOf(request);
      for (const key of series ?? []) scope.checkSeries(key);
      if (metric !== undefined) scope.checkMetric(metric);
      const t = now();
      const range = windowRange(request.query, t);
      const quantiles = quantile === undefined ? {} : { quantiles: quantile };
      // A window ending now is summed in whole minutes: it moves to other buckets each minute.
      const relative = movesWithClock(request, request.query)
        ? { ...range, movesAtMs: floorTo(t, MINUTE_MS) + MINUTE_MS }
        : undefined;
      return sendAnswer(options, request, reply, {
        ...(relative ? { relative } : {}),
        shape: READ_SHAPES.window,
        read: async () => {
          const result = await (metric === undefined
            ? readerFor(reader, request).window({
                series: series ?? [],
                field,
                ...range,
                ...quantiles,
              })
            : // The seed's question in one request: the metric's series found in the window's own buckets.
              readerFor(reader, request).windowByMetric({
                metric,
                tags: tag ?? {},
                limit: limit ?? SERIES_LIMIT_DEFAULT,
                field,
                ...range,
                ...quantiles,
              }));
          return tz === undefined ? result : windowInZone(result, tz);
        },
      });
    },
  );

  api.get(
    '/raw',
    {
      schema: {
        summary: 'Exact raw points of one series over a range, with the nearest point on each side',
        tags: ['read'],
        security: BEARER,
        querystring: rawQuerySchema,
        response: {
          200: tabularAnswer(rawSchema, 'one row per point, the neighbours included'),
          ...readAnswers,
        },
      },
      preValidation,
    },
    async (request, reply) => {
      const { series, from, to, field } = request.query;
      scopeOf(request).checkSeries(series);
      const result = await readerFor(reader, request).rawPoints({
        series,
        ...readRange(from, to, now()),
        ...(field === undefined ? {} : { field }),
      });
      return counted(request, reply, result, rawShape(field));
    },
  );
  done();
};
