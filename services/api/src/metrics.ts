import type { FastifyRequest } from 'fastify';
import type { CommandEvent } from '@tickertape/store';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

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
    cacheLookups: new Counter({
      name: 'tickertape_api_cache_lookups_total',
      help: 'Lookups in the in-process caches, by cache (answers, buckets) and result (hit, miss, coalesced: waited for an identical read in flight)',
      labelNames: ['cache', 'result'] as const,
      registers,
    }),
    cacheEvictions: new Counter({
      name: 'tickertape_api_cache_evictions_total',
      help: 'Entries the in-process caches dropped to stay within their bytes budget, by cache',
      labelNames: ['cache'] as const,
      registers,
    }),
    cacheBytes: new Gauge({
      name: 'tickertape_api_cache_bytes',
      help: 'Bytes the in-process caches hold (estimated), by cache',
      labelNames: ['cache'] as const,
      registers,
    }),
    databaseCommands: new Counter({
      name: 'tickertape_api_database_commands_total',
      help: 'Commands the API sent to the database, by command name (find, getMore, …): what reads cost it',
      labelNames: ['command'] as const,
      registers,
    }),
    databaseDocuments: new Counter({
      name: 'tickertape_api_database_documents_total',
      help: 'Documents the database returned to the API (in find and getMore batches)',
      registers,
    }),
    aborted: new Counter({
      name: 'tickertape_api_requests_aborted_total',
      help: 'Requests whose client went away before the answer, by route pattern: their database reads were cancelled',
      labelNames: ['route'] as const,
      registers,
    }),
    readTimeouts: new Counter({
      name: 'tickertape_api_read_timeouts_total',
      help: 'Requests answered 503 because their reads ran past API_READ_TIMEOUT_MS, by route pattern',
      labelNames: ['route'] as const,
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

/**
 * The observer a cache reports to: lookups and evictions counted under its name, its size
 * re-read after each change (a miss adds, an eviction removes; a hit changes nothing).
 */
export function cacheObserver(
  metrics: ApiMetrics,
  cache: 'answers' | 'buckets',
  bytes: () => number,
): (event: 'hit' | 'miss' | 'coalesced' | 'evicted', count?: number) => void {
  return (event, count = 1) => {
    if (event === 'evicted') metrics.cacheEvictions.inc({ cache }, count);
    else metrics.cacheLookups.inc({ cache, result: event }, count);
    if (event !== 'hit') metrics.cacheBytes.set({ cache }, bytes());
  };
}

/** Counts a command the store sent and the documents its cursor returned (the store's `onCommand`). */
export function countDatabaseCommand(metrics: ApiMetrics, event: CommandEvent): void {
  metrics.databaseCommands.inc({ command: event.name });
  if (event.documents !== undefined) metrics.databaseDocuments.inc(event.documents);
}
