import { AUTO_SKIP_LEVEL, type Level } from '@tickertape/buckets';
import type { RollupReader } from '@tickertape/query';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { LagSource } from '../lag.js';
import { REVALIDATE } from '../http-caching.js';
import { countExamined, type ApiMetrics } from '../metrics.js';
import { statusQuerySchema } from '../query-schemas.js';
import {
  levelsSchema,
  notModified,
  readAnswers,
  readTimeout,
  statusSchema,
  unscopedErrors,
} from '../response-schemas.js';
import { BEARER } from './openapi-routes.js';
import { scopeOf } from '../token-scope.js';
import { readerFor } from '../request-reads.js';

/** Each level's finality watermark (`finalBefore`), absent before the scheduler's first run. */
export type FinalitySource = () => Promise<Partial<Record<Level, number>>>;

export interface LevelRouteOptions {
  reader: RollupReader;
  lag: LagSource;
  finality: FinalitySource;
  metrics: ApiMetrics;
}

/** Completeness and progress: how final and how fresh each level is, and how far behind. */
export const levelRoutes: FastifyPluginCallbackZod<LevelRouteOptions> = (api, options, done) => {
  const { reader, lag, finality, metrics } = options;

  api.get(
    '/status',
    {
      schema: {
        summary: 'Freshness and finality of one series at every level, with consumer lag',
        tags: ['status'],
        security: BEARER,
        querystring: statusQuerySchema,
        response: { 200: statusSchema, ...readAnswers },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', REVALIDATE);
      scopeOf(request).checkSeries(request.query.series);
      const [status, lags] = await Promise.all([
        readerFor(reader, request).status(request.query.series),
        Promise.all(reader.levels.map(lag)),
      ]);
      countExamined(metrics, request, status);
      return {
        ...status,
        levels: status.levels.map((row) => ({
          ...row,
          lag: lags[reader.levels.indexOf(row.level)] ?? null,
        })),
      };
    },
  );

  api.get(
    '/levels',
    {
      schema: {
        summary:
          'The levels served: finality watermark, consumer lag and level policy (metrics skipped, kept compact, pinned out of the automatic skip) of each; the metrics with quantile sketches (and their α where not 1 %) and the weighted fields',
        tags: ['status'],
        security: BEARER,
        response: { 200: levelsSchema, 304: notModified, ...unscopedErrors, ...readTimeout },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', REVALIDATE);
      // The policy names metrics: a scoped token sees only its own.
      const scope = scopeOf(request);
      const mine = (metrics: readonly string[]) => metrics.filter((m) => scope.allows(m));
      const [marks, lags, policy] = await Promise.all([
        finality(),
        Promise.all(reader.levels.map(lag)),
        reader.levelPolicy(),
      ]);
      return {
        levels: reader.levels.map((level, i) => ({
          level,
          finalBefore: marks[level] ?? null,
          lag: lags[i] ?? null,
          skips: mine(policy.metricsAt(level, 'skip')),
          compact: mine(policy.metricsAt(level, 'compact')),
          pinned: level === AUTO_SKIP_LEVEL ? mine(policy.pinnedMetrics()) : [],
        })),
        sketches: mine(policy.sketchedMetrics()),
        sketchAlpha: policy.sketchAlphas().filter((s) => scope.allows(s.metric)),
        weights: policy.weights().filter((w) => scope.allows(w.metric)),
        autoSkips: policy
          .autoSkips()
          .filter((span) => scope.allows(span.metric))
          .map(({ metric, fromMs, untilMs }) => ({
            level: AUTO_SKIP_LEVEL,
            metric,
            from: new Date(fromMs).toISOString(),
            until: untilMs === undefined ? null : new Date(untilMs).toISOString(),
          })),
      };
    },
  );
  done();
};
