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
import { PROM_PARAMS, labelNameParam, promAnswers } from './openapi-schemas.js';
import { PromParams, formBodyParser } from './params.js';
import { rollupSampleSource } from './sample-source.js';
import { scopeOf, type ScopedToken } from '../token-scope.js';
import { readSignalOf } from '../request-reads.js';

export interface PrometheusRouteOptions extends Answering {
  tokens: readonly (string | ScopedToken)[];
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
  const everything = new PromCatalog(reader, limits.maxSeries, now);
  /**
   * The catalog and the evaluator's data as the request's token sees them: a metric outside its
   * scope is absent, as a metric without data is in Prometheus — selectors on it select nothing,
   * discovery does not list it (no 403: a selector is a filter, not a name). Its reads stop when
   * the client goes.
   */
  const scoped = (request: FastifyRequest) => {
    const catalog = everything.scoped(scopeOf(request));
    return { catalog, source: rollupSampleSource(reader, catalog, limits, readSignalOf(request)) };
  };

  api.addHook('onRequest', bearerAuth(options.tokens, options.metrics, promError));
  // The schemas document the routes (/openapi.json); PromParams reads the parameters as Prometheus
  // does (a POSTed field before the URL's), and the envelopes are written as they are.
  api.setValidatorCompiler(() => (value: unknown) => ({ value }));
  api.setSerializerCompiler(() => (data) => JSON.stringify(data));
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

  /** The route's parameters and answers in /openapi.json (openapi-schemas.ts), GET or POSTed form. */
  const doc = (route: keyof typeof ROUTE_DOCS, method: 'GET' | 'POST') => {
    const [summary, description] = ROUTE_DOCS[route];
    const params = PROM_PARAMS[route];
    return {
      schema: {
        summary,
        description: method === 'POST' ? `${description} As a POSTed form.` : description,
        tags: ['prometheus'],
        security: BEARER,
        ...(method === 'POST'
          ? { body: params, consumes: ['application/x-www-form-urlencoded'] }
          : { querystring: params }),
        ...(route === 'labelValues' ? { params: labelNameParam } : {}),
        response: promAnswers(route, method),
      },
    };
  };
  const both = (
    path: string,
    route: keyof typeof ROUTE_DOCS,
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => {
    api.get(path, doc(route, 'GET'), handler);
    api.post(path, doc(route, 'POST'), handler);
  };

  both('/query', 'query', async (request, reply) => {
    const params = PromParams.of(request);
    const expr = parsePromQL(params.required('query'), bounds.query);
    const given = params.time('time');
    const t = given ?? floorTo(now(), NOW_RESOLUTION_MS);
    const { source } = scoped(request);
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

  both('/query_range', 'queryRange', async (request, reply) => {
    const params = PromParams.of(request);
    const expr = parsePromQL(params.required('query'), bounds.query);
    const start = params.time('start');
    const end = params.time('end');
    if (start === undefined || end === undefined)
      throw promParameterMissing(start === undefined ? 'start' : 'end');
    const { times, stepMs } = rangeTimes(start, end, params.required('step'));
    const { source } = scoped(request);
    return answer(request, reply, params, async () => {
      const { value, openLevels, warnings } = await evaluate(expr, times, stepMs, source);
      return { data: rangeData(bounded(value), times), openLevels, warnings };
    });
  });

  both('/labels', 'labels', async (request) => {
    const params = PromParams.of(request);
    return success(
      await labelNames(
        scoped(request).catalog,
        parseMatchers(params.all('match[]'), bounds),
        lookupRange(params),
        bounds,
        readSignalOf(request),
      ),
    );
  });

  api.get<{ Params: { name: string } }>(
    '/label/:name/values',
    doc('labelValues', 'GET'),
    async (request) => {
      const params = PromParams.of(request);
      return success(
        await labelValues(
          reader,
          scoped(request).catalog,
          request.params.name,
          parseMatchers(params.all('match[]'), bounds),
          lookupRange(params),
          limits.maxSeries,
          bounds,
          readSignalOf(request),
        ),
      );
    },
  );

  both('/series', 'series', async (request) => {
    const params = PromParams.of(request);
    const selectors = params.all('match[]');
    if (selectors.length === 0) throw promParameterMissing('match[]');
    const found = await selectAll(
      scoped(request).catalog,
      parseMatchers(selectors, bounds),
      lookupRange(params),
      bounds,
      readSignalOf(request),
    );
    return success(found.map((s) => s.labels));
  });

  api.get('/metadata', doc('metadata', 'GET'), async (request) => {
    const params = PromParams.of(request);
    const only = params.get('metric');
    // Prometheus' reading: a negative limit is none, 0 an empty answer.
    const limit = params.int('limit') ?? -1;
    const entries = (await scoped(request).catalog.names(lookupRange(params)))
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

  api.get('/status/buildinfo', doc('buildinfo', 'GET'), () =>
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

/** What /openapi.json says of each route, beside its parameters and answers (openapi-schemas.ts). */
const ROUTE_DOCS = {
  query: [
    'PromQL at one instant (Prometheus HTTP API)',
    'The answer says in X-Tickertape-Final whether it read only final buckets.',
  ],
  queryRange: [
    'PromQL over a range (Prometheus HTTP API)',
    'A range [d] at t covers [t−d, t) in whole widths (docs/analysts.md).',
  ],
  labels: [
    'Label names (Prometheus HTTP API)',
    'Of the series match[] selects, or of every metric in the lookup.',
  ],
  labelValues: [
    "A label's values (Prometheus HTTP API)",
    '__name__ lists the series names. A name that is not a label name is refused, as Prometheus does.',
  ],
  series: ['Series by selector (Prometheus HTTP API)', 'The label sets match[] selects.'],
  metadata: ['Metric metadata (Prometheus HTTP API)', 'Every name is a gauge.'],
  buildinfo: [
    'Build information (Prometheus HTTP API)',
    'The Prometheus release whose query API this follows.',
  ],
} satisfies Record<keyof typeof PROM_PARAMS, [string, string]>;

function promParameterMissing(name: string) {
  return new PromQLError(PromQLErrorCode.BadParameter, `invalid parameter "${name}": missing`);
}
