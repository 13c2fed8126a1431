import type { Logger } from '@tickertape/logger';
import { openMongoStores } from '@tickertape/store';
import { SeededRandom } from '@tickertape/producer';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { openDesignDatabases } from '../design-databases.js';
import type { BenchEnv } from '../env.js';
import { benchDatabase } from '../run-resources.js';
import { StackMeter } from '../stack-cpu.js';
import { PER_TICK_API, READ_TOKEN, startApiProcess, type ApiProcess } from './api-process.js';
import { runLoad, type LoadResult } from './load.js';
import { startProxyProcess, type ProxyProcess } from './proxy-process.js';
import { ROUTE_METRIC, routeName, routePicker, routeSensors, type RouteMix } from './route-mix.js';
import { READ_FIELD, seedReadData, type ReadData } from './seed.js';

export interface ReadLoadSettings {
  mix: RouteMix;
  /** How long each load runs. */
  durationS: number;
  /** Concurrent clients, each asking again as soon as it has its answer. */
  connections: number;
  seed: number;
  keep: boolean;
}

export interface ReadLoadReport {
  settings: ReadLoadSettings;
  startedAt: number;
  finishedAt: number;
  cores: number;
  data: ReadData;
  loads: LoadResult[];
}

/** The API with every cache off, as before the read-scale work: each request reads its buckets. */
export const UNCACHED_VARS = {
  BUCKET_CACHE_BYTES: '0',
  ANSWER_CACHE_BYTES: '0',
  FINALITY_REFRESH_MS: '0',
} as const;

/** Both APIs count their database commands, for the commands and documents per request. */
const COUNTED = { COUNT_DATABASE_COMMANDS: 'true' } as const;

async function freeLocalPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}

/**
 * The seed's question for one route: its sensors' 10-minute totals, the sensors listed (an app
 * knows which sensors a route has; each is one `_id` lookup per bucket read).
 */
function windowPath(mix: RouteMix, route: number, range: string): string {
  const series = routeSensors(mix, route).map((key) => `series=${encodeURIComponent(key)}`);
  return `/api/v1/window?field=${READ_FIELD}&${series.join('&')}&${range}`;
}

/**
 * The same question by the route's tag (`metric` + `tag`): the reader finds the series in the
 * slot's buckets through the metric's index, which holds every sensor of the metric, so each
 * read walks past the other routes' sensors (docs/benchmarks.md, "Reads at seed 001's scale").
 */
function taggedPath(route: number, range: string): string {
  return `/api/v1/window?metric=${ROUTE_METRIC}&field=${READ_FIELD}&tag=route:${routeName(route)}&limit=50&${range}`;
}

/**
 * Seed 001's read load against the API on this machine: the data of 16,000 sensors, then each
 * question asked by `connections` clients for `durationS` — /health for scale; final past windows
 * and "the last 10 minutes", each from an API with its caches off and one with them on; and both
 * through the caching proxy. Every figure is from this one run.
 */
export async function runReadLoad(
  env: BenchEnv,
  settings: ReadLoadSettings,
  logger: Logger,
): Promise<ReadLoadReport> {
  const startedAt = Date.now();
  const database = `ttb-reads-${startedAt.toString(36)}`;
  const stores = await openMongoStores({
    uri: env.MONGODB_URI,
    database,
    appName: 'tickertape-bench-reads',
    logger,
  });
  const designs = await openDesignDatabases(env.MONGODB_URI, 'tickertape-bench-reads', logger);
  const db = await benchDatabase(stores, designs, database);
  const running: (ApiProcess | ProxyProcess)[] = [];
  try {
    logger.info({ database, sensors: settings.mix.sensors }, 'read load: writing the sensors');
    const data = await seedReadData(db, settings.mix, startedAt, logger);
    const uncached = await startApiProcess(env, database, await freeLocalPort(), {
      ...UNCACHED_VARS,
      ...COUNTED,
    });
    running.push(uncached);
    // Public: the proxy in front authenticates every request, and its hits are measured.
    const cached = await startApiProcess(env, database, await freeLocalPort(), {
      ...COUNTED,
      CACHE_SCOPE: 'public',
    });
    running.push(cached);
    const proxy = await startProxyProcess(new URL(cached.base).host, await freeLocalPort());
    running.push(proxy);
    const perTick = await startApiProcess(env, database, await freeLocalPort(), {}, PER_TICK_API);
    running.push(perTick);

    const stack = StackMeter.locate(env);
    const pick = routePicker(settings.mix, settings.seed);
    const random = new SeededRandom(settings.seed + 1);
    const finalPath = () => {
      const window = data.finalWindows[random.int(0, data.finalWindows.length - 1)]!;
      return windowPath(settings.mix, pick(), `from=${window.fromMs}&to=${window.toMs}`);
    };
    const openPath = () => windowPath(settings.mix, pick(), 'last=10m');
    const taggedOpenPath = () => taggedPath(pick(), 'last=10m');
    const load = async (name: string, base: string, api: ApiProcess, nextPath: () => string) => {
      logger.info({ load: name }, 'read load: running');
      const result = await runLoad({
        name,
        base,
        api,
        stack,
        token: READ_TOKEN,
        nextPath,
        durationS: settings.durationS,
        connections: settings.connections,
      });
      logger.info(
        { load: name, perSecond: Math.round(result.perSecond), p99Ms: result.p99Ms },
        'read load: done',
      );
      return result;
    };
    const loads: LoadResult[] = [];
    loads.push(await load('health', cached.base, cached, () => '/health'));
    loads.push(await load('final, caches off', uncached.base, uncached, finalPath));
    // Warm: the caches start empty; the measured load is the steady state after one pass.
    await load('warm-up (not reported)', cached.base, cached, finalPath);
    loads.push(await load('final, caches on', cached.base, cached, finalPath));
    loads.push(await load('last 10 min, caches off', uncached.base, uncached, openPath));
    loads.push(await load('last 10 min, caches on', cached.base, cached, openPath));
    loads.push(await load('final, per-tick design C', perTick.base, perTick, finalPath));
    loads.push(await load('last 10 min, per-tick design C', perTick.base, perTick, openPath));
    loads.push(await load('final, through the proxy', proxy.base, cached, finalPath));
    loads.push(await load('last 10 min, through the proxy', proxy.base, cached, openPath));
    // Last: its reads take seconds each on the stand-in and go on after the load ends, so any load
    // after it would share the database with them.
    loads.push(
      await load('last 10 min by route tag, caches off', uncached.base, uncached, taggedOpenPath),
    );
    return {
      settings,
      startedAt,
      finishedAt: Date.now(),
      cores: cpus().length,
      data,
      loads,
    };
  } finally {
    for (const part of running.reverse()) await part.stop();
    if (!settings.keep) await stores.dropDatabase(database);
    await designs.close();
    await stores.close();
  }
}
