import { createLogger } from '@tickertape/logger';
import {
  FinalBucketCache,
  RollupReader,
  type CacheOptions,
  type ReaderOptions,
} from '@tickertape/query';
import type { MongoStores } from '@tickertape/store';
import { Registry } from 'prom-client';
import { buildApp, type ApiApp, type BuildAppOptions } from '../../src/app.js';
import { cacheObserver, createApiMetrics } from '../../src/metrics.js';

export const TOKEN = 'test-token-0123456789abcdef';
export const OTHER_TOKEN = 'second-token-fedcba9876543210';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RunningApi {
  base: string;
  app: ApiApp;
  registry: Registry;
  /** Every log line the app wrote, joined. */
  logs(): string;
  /**
   * GET over real HTTP with the token (or `token`, or none when null), and `headers`; JSON bodies
   * parsed.
   */
  get<T = unknown>(
    path: string,
    token?: string | null,
    headers?: Record<string, string>,
  ): Promise<Answer<T>>;
  /** The text of /metrics. */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The app on a real port over a real database, wired as main wires it (reader, watermarks, ping)
 * unless a test overrides a part.
 */
export async function startTestApi(
  stores: Pick<MongoStores, 'rollups' | 'segments'>,
  options: {
    reader?: ReaderOptions & Omit<CacheOptions, 'cache'>;
    /** Bytes of final buckets the reader keeps (as BUCKET_CACHE_BYTES); none by default. */
    bucketCacheBytes?: number;
    /** Hooks a test adds to watch the app (Fastify takes them until it listens). */
    beforeListen?: (app: ApiApp) => void;
  } & Partial<Omit<BuildAppOptions, 'logger' | 'registry' | 'reader' | 'metrics'>> = {},
): Promise<RunningApi> {
  const lines: string[] = [];
  const logger = createLogger({
    name: 'api-test',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
  const registry = new Registry();
  const metrics = createApiMetrics(registry);
  const { reader: readerOptions, bucketCacheBytes, beforeListen, ...rest } = options;
  const cache: FinalBucketCache | undefined =
    bucketCacheBytes === undefined
      ? undefined
      : new FinalBucketCache({
          maxBytes: bucketCacheBytes,
          observe: cacheObserver(metrics, 'buckets', () => cache?.bytes ?? 0),
        });
  const app = buildApp({
    reader: new RollupReader(stores, { ...readerOptions, ...(cache ? { cache } : {}) }),
    tokens: [TOKEN, OTHER_TOKEN],
    health: () => stores.rollups.ping(),
    ...rest,
    logger,
    registry,
    metrics,
  });
  beforeListen?.(app);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    app,
    registry,
    logs: () => lines.join(''),
    async get<T>(
      path: string,
      token: string | null = TOKEN,
      headers: Record<string, string> = {},
    ): Promise<Answer<T>> {
      const response = await fetch(`${base}${path}`, {
        headers: { ...headers, ...(token === null ? {} : { Authorization: `Bearer ${token}` }) },
      });
      const text = await response.text();
      const json = (response.headers.get('content-type') ?? '').includes('json');
      return {
        status: response.status,
        body: (json && text !== '' ? JSON.parse(text) : text) as T,
        headers: response.headers,
        text,
      };
    },
    metrics: async () => (await fetch(`${base}/metrics`)).text(),
    close: () => app.close(),
  };
}

/** A query string from pairs, repeating keys as given: `qs(['series', a], ['series', b])`. */
export function qs(...pairs: [string, string | number][]): string {
  return `?${new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}
