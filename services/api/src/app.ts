import type { Logger } from '@tickertape/logger';
import type { RollupReader } from '@tickertape/query';
import { isReadTimeout } from '@tickertape/store';
import { LEVEL_FRESHNESS_BUDGETS } from '@tickertape/topology';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyRequest } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { AnswerCache } from './answer-cache.js';
import { answerValidation } from './answer-validation.js';
import {
  apiErrorHandler,
  frameworkErrorHandler,
  methodNotAllowed,
  notFoundHandler,
} from './api-error.js';
import { bearerAuth } from './auth.js';
import type { LagSource } from './lag.js';
import type { CachingPolicy } from './http-caching.js';
import { cacheObserver, createApiMetrics, type ApiMetrics } from './metrics.js';
import { DASHBOARD_DIR, dashboardRoutes } from './routes/dashboard-routes.js';
import { levelRoutes, type FinalitySource } from './routes/level-routes.js';
import { registerOpenApi } from './routes/openapi-routes.js';
import type { PromBounds } from './prometheus/bounds.js';
import { prometheusRoutes } from './prometheus/routes.js';
import { RouteMethods } from './route-methods.js';
import { registerSecurityHeaders } from './security-headers.js';
import { opsRoutes } from './routes/ops-routes.js';
import { readRoutes } from './routes/read-routes.js';
import { DEFAULT_READ_TIMEOUT_MS, trackRequestReads, wasAborted } from './request-reads.js';
import { tokenRoute } from './routes/token-route.js';
import type { ScopedToken } from './token-scope.js';

export interface BuildAppOptions {
  reader: RollupReader;
  /** Bearer tokens accepted on /api/* and /prometheus; a plain string reads every metric. */
  tokens: readonly (string | ScopedToken)[];
  logger: Logger;
  /** Where the API's metrics are registered and what /metrics serves. */
  registry: Registry;
  /** Consumer lag per level; without it, lag is reported as null. */
  lag?: LagSource;
  /** Finality watermarks for /levels; the reader's by default. */
  finality?: FinalitySource;
  /** The database ping behind /health; without it, /health reports the process only. */
  health?: () => Promise<unknown>;
  /** Clock for default ranges and `last=`; the reader's by default, so one fake clock drives both. */
  now?: () => number;
  /** Served at /dashboard/; services/api/dist/dashboard (build:dashboard's output) by default. */
  dashboardDir?: string;
  /** The API's metrics, when the caller made them first (to hand them to the reader's cache). */
  metrics?: ApiMetrics;
  /** How answers are kept and what caches are told; DEFAULT_CACHING by default. */
  caching?: AnswerCaching;
  /** What one request to /prometheus may ask; DEFAULT_PROM_BOUNDS by default. */
  promBounds?: PromBounds;
  /** The longest one request may read (API_READ_TIMEOUT_MS); DEFAULT_READ_TIMEOUT_MS by default. */
  readTimeoutMs?: number;
}

/** The kept answers' budget and the Cache-Control rules (env.ts has each setting's why). */
export interface AnswerCaching extends CachingPolicy {
  answerBytes: number;
  openReuseMs: number;
}

const unknownLag: LagSource = () => Promise.resolve(null);

/** The API's defaults (env.ts): 64 MiB of answers, open ones reused for 5 s at most, private. */
export const DEFAULT_CACHING: AnswerCaching = {
  answerBytes: 64 * 1024 * 1024,
  openReuseMs: 5000,
  scope: 'private',
  finalMaxAgeS: 86_400,
  budgetsMs: LEVEL_FRESHNESS_BUDGETS,
};

/**
 * The API as a Fastify instance, not yet listening: main listens on HTTP_PORT, tests inject or
 * listen on port 0. /api/* needs a bearer token; /health, /metrics, /openapi.json, /docs and
 * the dashboard's static files do not.
 */
export function buildApp(options: BuildAppOptions) {
  const { reader, logger, registry } = options;
  const now = options.now ?? reader.ctx.now;
  const metrics = options.metrics ?? createApiMetrics(registry);
  const caching = options.caching ?? DEFAULT_CACHING;
  const answers: AnswerCache = new AnswerCache({
    maxBytes: caching.answerBytes,
    openReuseMs: caching.openReuseMs,
    now,
    observe: cacheObserver(metrics, 'answers', () => answers.bytes),
  });
  // Typed as Fastify's logger so the instance keeps Fastify's default generics (plugins expect them).
  const loggerInstance: FastifyBaseLogger = logger;
  const app = Fastify({
    loggerInstance,
    // One line per /api request from onResponse below, none for scrapes and static files.
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(apiErrorHandler(logger));
  app.setNotFoundHandler(notFoundHandler);
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', (route) => routeMethods.add(route.url, route.method));
  app.addHook('onRequest', methodNotAllowed(routeMethods));

  // The route pattern, never the raw URL: labels stay bounded whatever clients send.
  const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';
  trackRequestReads(app, {
    readTimeoutMs: options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS,
    // The request's one log line, whatever its route: it may never get an onResponse.
    onAbort: (request, reply) => {
      metrics.aborted.inc({ route: routeOf(request) });
      logger.info(
        {
          requestId: request.id,
          method: request.method,
          route: routeOf(request),
          aborted: true,
          ms: Math.round(reply.elapsedTime),
        },
        'request aborted by the client; its reads were cancelled',
      );
    },
  });
  app.addHook('onError', async (request, _reply, err) => {
    if (isReadTimeout(err)) metrics.readTimeouts.inc({ route: routeOf(request) });
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.duration.observe({ route }, reply.elapsedTime / 1000);
    if (request.url.startsWith('/api/') && !wasAborted(request))
      logger.info(
        {
          requestId: request.id,
          method: request.method,
          route,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
  });

  registerSecurityHeaders(app);
  registerOpenApi(app);
  void app.register(opsRoutes, { registry, health: options.health });
  void app.register(dashboardRoutes, { dir: options.dashboardDir ?? DASHBOARD_DIR });
  void app.register(
    async (api) => {
      // In this scope, so every route under /api — and its 404 — is behind the token, whatever
      // the URL looks like before routing.
      api.addHook('onRequest', bearerAuth(options.tokens, metrics));
      api.setNotFoundHandler(notFoundHandler);
      // A strong ETag on every answer, 304 for a matching If-None-Match, Vary: Authorization.
      await answerValidation(api);
      await api.register(readRoutes, { prefix: '/v1', reader, now, metrics, answers, caching });
      await api.register(tokenRoute, { prefix: '/v1' });
      await api.register(levelRoutes, {
        prefix: '/v1',
        reader,
        metrics,
        lag: options.lag ?? unknownLag,
        finality: options.finality ?? (() => reader.watermarks()),
      });
    },
    { prefix: '/api' },
  );
  // Grafana's Prometheus data source, promtool and Prometheus clients: PromQL over the rollups.
  void app.register(prometheusRoutes, {
    prefix: '/prometheus/api/v1',
    reader,
    now,
    metrics,
    answers,
    caching,
    tokens: options.tokens,
    logger,
    ...(options.promBounds ? { bounds: options.promBounds } : {}),
  });
  return app;
}

export type ApiApp = ReturnType<typeof buildApp>;
