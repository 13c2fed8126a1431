import type { RollupReader } from '@tickertape/query';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { countExamined, type ApiMetrics } from '../metrics.js';
import {
  DEFAULT_MAX_POINTS,
  SERIES_LIMIT_DEFAULT,
  candlesQuerySchema,
  pointsQuerySchema,
  rawQuerySchema,
  seriesQuerySchema,
  windowQuerySchema,
} from '../query-schemas.js';
import { seriesRange, windowRange } from '../ranges.js';
import {
  apiErrors,
  candlesSchema,
  pointsSchema,
  rawSchema,
  seriesListSchema,
  windowSchema,
} from '../response-schemas.js';
import { BEARER } from './openapi-routes.js';

export interface ReadRouteOptions {
  reader: RollupReader;
  now: () => number;
  metrics: ApiMetrics;
}

/**
 * The five reads. Each one goes through the reader, which plans its documents and refuses an
 * over-budget plan before reading: no route here reads the database itself.
 */
export const readRoutes: FastifyPluginCallbackZod<ReadRouteOptions> = (api, options, done) => {
  const { reader, now, metrics } = options;
  const counted = <T extends { examined: number }>(request: FastifyRequest, result: T) =>
    countExamined(metrics, request, result);

  api.get(
    '/series',
    {
      schema: {
        summary: 'Series with data in a range, by metric and tags',
        tags: ['read'],
        security: BEARER,
        querystring: seriesQuerySchema,
        response: { 200: seriesListSchema, ...apiErrors },
      },
    },
    async (request) => {
      const { metric, tag, from, to, limit } = request.query;
      const range = seriesRange(from, to, now());
      return counted(request, await reader.series({ metric, tags: tag, ...range, limit }));
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
        response: { 200: pointsSchema, ...apiErrors },
      },
    },
    async (request) => {
      const { series, field, from, to, maxPoints, level, detail } = request.query;
      const query = { series, field, fromMs: from, toMs: to ?? now() };
      const result =
        level === undefined
          ? await reader.auto({ ...query, maxPoints: maxPoints ?? DEFAULT_MAX_POINTS })
          : await reader.range({ ...query, level, detail: detail ?? 'slot' });
      return counted(request, result);
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
        response: { 200: candlesSchema, ...apiErrors },
      },
    },
    async (request) => {
      const { series, field, from, to, maxPoints } = request.query;
      const result = await reader.candles({
        series,
        field,
        fromMs: from,
        toMs: to ?? now(),
        maxPoints: maxPoints ?? DEFAULT_MAX_POINTS,
      });
      return counted(request, result);
    },
  );

  api.get(
    '/window',
    {
      schema: {
        summary:
          'Count, sum, average, min, max, first and last of a field over a window, per series',
        tags: ['read'],
        security: BEARER,
        querystring: windowQuerySchema,
        response: { 200: windowSchema, ...apiErrors },
      },
    },
    async (request) => {
      const { series, metric, tag, limit, field } = request.query;
      const range = windowRange(request.query, now());
      if (metric === undefined)
        return counted(request, await reader.window({ series: series ?? [], field, ...range }));
      // The seed's question in one request: the metric's series found in the window's own buckets.
      const { selected, ...window } = await reader.windowByMetric({
        metric,
        tags: tag ?? {},
        limit: limit ?? SERIES_LIMIT_DEFAULT,
        field,
        ...range,
      });
      return counted(request, { ...window, selected });
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
        response: { 200: rawSchema, ...apiErrors },
      },
    },
    async (request) => {
      const { series, from, to, field } = request.query;
      const result = await reader.raw({
        series,
        fromMs: from,
        toMs: to ?? now(),
        ...(field === undefined ? {} : { field }),
      });
      return counted(request, result);
    },
  );
  done();
};
