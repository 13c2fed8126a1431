import { floorTo, isLevel } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import {
  PromQLError,
  PromQLErrorCode,
  evaluate,
  instantData,
  metricName,
  parsePromQL,
  rangeData,
  rangeTimes,
  type Value,
} from '@tickertape/promql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerAuth } from '../auth.js';
import { answerValidation } from '../answer-validation.js';
import { REVALIDATE, cacheControl, reuseUntil } from '../http-caching.js';
import type { ApiMetrics } from '../metrics.js';
import { keptAnswer, type Answering } from '../routes/answers.js';
import { BEARER } from '../routes/openapi-routes.js';
import { DEFAULT_PROM_BOUNDS, tooManySeries, type PromBounds } from './bounds.js';
import { PromCatalog, type Range } from './catalog.js';
import { labelNames, labelValues, parseMatchers, selectAll } from './discovery.js';
import { promError, promErrorHandler, success } from './envelope.js';
import { PromParams, formBodyParser } from './params.js';
import { rollupSampleSource } from './sample-source.js';

export interface PrometheusRouteOptions extends Answering {
  tokens: readonly string[];
  /** What one request may ask (PromBounds); DEFAULT_PROM_BOUNDS by default. */
  bounds?: PromBounds;
  logger: Logger;
  metrics: ApiMetrics;
}

/**
 * Label and series lookups without start/end look at the last day (Prometheus: all time), so a
 * bare /labels reads a day of catalog, not every partition ever written (docs/analysts.md).
 */
const DEFAULT_LOOKUP_MS = 86_400_000;
/** An instant query without `time` is evaluated at the current second, and kept that long. */
const NOW_RESOLUTION_MS = 1000;

/** Says whether the answer read only final buckets: Grafana shows the present, which is not final. */
export const FINAL_HEADER = 'x-tickertape-final';

/**
 * The Prometheus HTTP query API over the rollups, under /prometheus/api/v1: what Grafana's
 * built-in Prometheus data source, promtool and Prometheus clients speak. GET and POST (form)
 * alike, the API's bearer tokens, Prometheus' envelopes and errors. Query answers go through the
 * API's kept answers, ETags and Cache-Control by finality, as the /api/v1 reads do.
 */
export async function prometheusRoutes(api: FastifyInstance, options: PrometheusRouteOptions) {
  const { reader, now, caching } = options;
  const bounds = options.bounds ?? DEFAULT_PROM_BOUNDS;
  /** A query's series past the bound are refused before the answer is written out. */
  const bounded = (value: Value): Value => {
    if (value.type === 'vector' && value.series.length > bounds.answerSeries.limit)
      throw tooManySeries(value.series.length, bounds);
    return value;
  };
  const limits = reader.ctx.limits;
  const catalog = new PromCatalog(reader, limits.maxSeries, now);
  const source = rollupSampleSource(reader, catalog, limits);

  api.addHook('onRequest', bearerAuth(options.tokens, options.metrics, promError));
  api.setErrorHandler(promErrorHandler(options.logger));
  api.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        promError(
          'not_found',
          `${request.method} ${request.url.split('?')[0]} is not an endpoint of this API`,
        ),
      ),
  );
  api.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => formBodyParser(request, body as string, done),
  );
  await answerValidation(api);
  // Label and series lists cannot say when they change (a new series): caches ask each time.
  api.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', REVALIDATE);
  });

  const lookupRange = (params: PromParams): Range => {
    const toMs = params.time('end') ?? now();
    return {
      fromMs: Math.max(0, params.time('start') ?? toMs - DEFAULT_LOOKUP_MS),
      toMs: Math.max(toMs, 1),
    };
  };

  /** An evaluation kept and sent like the /api/v1 reads: strong ETag, Cache-Control by finality. */
  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: PromParams,
    compute: () => Promise<{
      data: unknown;
      openLevels: readonly string[];
      warnings: readonly string[];
    }>,
    movesAtMs?: number,
  ) => {
    const kept = await keptAnswer(
      options,
      request,
      [params.canonical(), movesAtMs ?? ''],
      async () => {
        const { data, openLevels, warnings } = await compute();
        return {
          body: JSON.stringify(success(data, warnings)),
          reuseUntilMs: reuseUntil({ openLevels: openLevels.filter(isLevel) }, caching, now()),
        };
      },
    );
    const until =
      movesAtMs === undefined ? kept.reuseUntilMs : Math.min(kept.reuseUntilMs, movesAtMs);
    return reply
      .type('application/json; charset=utf-8')
      .header('etag', kept.etag)
      .header('cache-control', cacheControl(until, caching, now()))
      .header(FINAL_HEADER, String(kept.reuseUntilMs === Infinity))
      .send(kept.body);
  };

  const doc = (summary: string, description: string) => ({
    schema: { summary, description, tags: ['prometheus'], security: BEARER },
  });
  const both = (
    path: string,
    [summary, description]: [string, string],
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => {
    api.get(path, doc(summary, description), handler);
    api.post(path, doc(summary, `${description} Also as a POSTed form.`), handler);
  };

  both('/query', ROUTE_DOCS.query, async (request, reply) => {
    const params = PromParams.of(request);
    const expr = parsePromQL(params.required('query'), bounds.query);
    const given = params.time('time');
    const t = given ?? floorTo(now(), NOW_RESOLUTION_MS);
    return answer(
      request,
      reply,
      params,
      async () => {
        const { value, openLevels, warnings } = await evaluate(expr, [t], undefined, source);
        return { data: instantData(bounded(value), t), openLevels, warnings };
      },
      given === undefined ? t + NOW_RESOLUTION_MS : undefined,
    );
  });

  both('/query_range', ROUTE_DOCS.queryRange, async (request, reply) => {
    const params = PromParams.of(request);
    const expr = parsePromQL(params.required('query'), bounds.query);
    const start = params.time('start');
    const end = params.time('end');
    if (start === undefined || end === undefined)
      throw promParameterMissing(start === undefined ? 'start' : 'end');
    const { times, stepMs } = rangeTimes(start, end, params.required('step'));
    return answer(request, reply, params, async () => {
      const { value, openLevels, warnings } = await evaluate(expr, times, stepMs, source);
      return { data: rangeData(bounded(value), times), openLevels, warnings };
    });
  });

  both('/labels', ROUTE_DOCS.labels, async (request) => {
    const params = PromParams.of(request);
    return success(
      await labelNames(
        catalog,
        parseMatchers(params.all('match[]'), bounds),
        lookupRange(params),
        bounds,
      ),
    );
  });

  api.get<{ Params: { name: string } }>(
    '/label/:name/values',
    doc(...ROUTE_DOCS.labelValues),
    async (request) => {
      const params = PromParams.of(request);
      return success(
        await labelValues(
          reader,
          catalog,
          request.params.name,
          parseMatchers(params.all('match[]'), bounds),
          lookupRange(params),
          limits.maxSeries,
          bounds,
        ),
      );
    },
  );

  both('/series', ROUTE_DOCS.series, async (request) => {
    const params = PromParams.of(request);
    const selectors = params.all('match[]');
    if (selectors.length === 0) throw promParameterMissing('match[]');
    const found = await selectAll(
      catalog,
      parseMatchers(selectors, bounds),
      lookupRange(params),
      bounds,
    );
    return success(found.map((s) => s.labels));
  });

  api.get('/metadata', doc(...ROUTE_DOCS.metadata), async (request) => {
    const params = PromParams.of(request);
    const only = params.get('metric');
    // Prometheus' reading: a negative limit is none, 0 an empty answer.
    const limit = params.int('limit') ?? -1;
    const entries = (await catalog.names(lookupRange(params)))
      .filter((entry) => only === undefined || entry.name === only)
      .slice(0, limit >= 0 ? limit : undefined);
    return success(
      Object.fromEntries(
        entries.map((entry) => [
          entry.name,
          [
            {
              type: 'gauge',
              help: `field ${entry.field} of tick metric ${entry.metric} (tickertape rollups; ${metricName(entry.metric, entry.field)})`,
              unit: '',
            },
          ],
        ]),
      ),
    );
  });

  api.get('/status/buildinfo', doc(...ROUTE_DOCS.buildinfo), () =>
    success({
      // The Prometheus release whose query API this one follows (Grafana reads it for features).
      version: '2.42.0',
      revision: 'tickertape',
      branch: 'tickertape',
      buildUser: 'tickertape',
      buildDate: '',
      goVersion: '',
    }),
  );
}

/** What /openapi.json says of each route (their parameters are Prometheus', not checked by zod). */
const ROUTE_DOCS = {
  query: [
    'PromQL at one instant (Prometheus HTTP API)',
    'Parameters: query, time (RFC 3339 or Unix seconds; now by default). The answer says in X-Tickertape-Final whether it read only final buckets.',
  ],
  queryRange: [
    'PromQL over a range (Prometheus HTTP API)',
    'Parameters: query, start, end, step. A range [d] at t covers [t−d, t) in whole widths (docs/analysts.md).',
  ],
  labels: ['Label names (Prometheus HTTP API)', 'Parameters: match[] (repeatable), start, end.'],
  labelValues: [
    "A label's values (Prometheus HTTP API)",
    'Parameters: match[] (repeatable), start, end; __name__ lists the series names.',
  ],
  series: [
    'Series by selector (Prometheus HTTP API)',
    'Parameters: match[] (required, repeatable), start, end.',
  ],
  metadata: [
    'Metric metadata (Prometheus HTTP API)',
    'Parameters: metric, limit. Every name is a gauge.',
  ],
  buildinfo: [
    'Build information (Prometheus HTTP API)',
    'The Prometheus release whose query API this follows.',
  ],
} satisfies Record<string, [string, string]>;

function promParameterMissing(name: string) {
  return new PromQLError(PromQLErrorCode.BadParameter, `invalid parameter "${name}": missing`);
}
