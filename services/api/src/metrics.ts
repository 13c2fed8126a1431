import type { FastifyRequest } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * The API's series, registered in the caller's registry (main adds the process defaults; tests
 * pass a fresh one per app, since a name may be registered once per registry).
 */
export function createApiMetrics(registry: Registry) {
  const registers = [registry];
  return {
    requests: new Counter({
      name: 'tickertape_api_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    duration: new Histogram({
      name: 'tickertape_api_request_duration_seconds',
      help: 'Time from request to response, by route pattern',
      labelNames: ['route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    examined: new Histogram({
      name: 'tickertape_api_documents_examined',
      help: 'Documents one read examined (rollup buckets; segments for /raw), by route pattern',
      labelNames: ['route'] as const,
      // Up to the default read budget (MAX_DOCUMENTS 5000) and past it, should the budget rise.
      buckets: [0, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000],
      registers,
    }),
    authFailures: new Counter({
      name: 'tickertape_api_auth_failures_total',
      help: 'Requests to /api refused for a missing or unknown bearer token',
      labelNames: ['reason'] as const,
      registers,
    }),
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;

/** Records what one read examined under its route pattern, and passes the result on. */
export function countExamined<T extends { examined: number }>(
  metrics: ApiMetrics,
  request: FastifyRequest,
  result: T,
): T {
  metrics.examined.observe({ route: request.routeOptions.url ?? 'unmatched' }, result.examined);
  return result;
}
