import { buildApp, type ApiApp } from '@tickertape/api';
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import { RollupReader } from '@tickertape/query';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import type { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { Registry } from 'prom-client';
import { runCli, type CliRun } from './cli.js';

/**
 * A reading every 7-9 s per sensor of `traffic` from `fromMs` up to `toMs`, with fractional
 * speeds (full precision on both sides of a CLI-vs-API comparison).
 */
export function trafficTicks(
  sensors: readonly Record<string, string>[],
  fromMs: number,
  toMs: number,
): FoldInput[] {
  const ticks: FoldInput[] = [];
  sensors.forEach((tags, i) => {
    const key = seriesKey('traffic', tags);
    for (let ts = fromMs + 1000 * i + 250, k = 0; ts < toMs; ts += (7 + i) * 1000, k++)
      ticks.push({
        seriesKey: key,
        metric: 'traffic',
        tags: { ...tags },
        ts,
        fields: { speed: 40 + ((k * 13 + i * 7) % 31) / 3 },
        strings: {},
        kafkaPartition: 0,
        offset: 0,
      });
  });
  return ticks.sort((a, b) => a.ts - b.ts).map((tick, offset) => ({ ...tick, offset }));
}

export interface ApiBeside {
  /** The test's own database, which `tickertape query --database` reads too. */
  database: string;
  app: ApiApp;
  /** `tickertape query <args> --format csv --database <database>`, on the clock `nowMs`. */
  cliCsv(args: string[]): Promise<CliRun>;
  /** `GET /api/v1/<route>?<query>&format=csv` with the API's token. */
  apiCsv(route: string, query: [string, string | number][]): Promise<Response>;
}

const TOKEN = 'api-beside-token-0123456789';

/**
 * `ticks` rolled up at every level in a database of the test's own, and the API over it on a
 * free port with one token and the fixed clock `nowMs`: what the CLI's answers are compared to,
 * both asked for CSV.
 */
export async function apiBeside(
  stack: TestStack,
  ticks: readonly FoldInput[],
  options: { nowMs: number },
): Promise<ApiBeside> {
  const db = testDatabase(stack);
  const stores = await storesOf(db);
  for (const level of LEVELS) await stores.rollups.writer(level).apply(ticks);
  const app = buildApp({
    reader: new RollupReader(stores, { now: () => options.nowMs }),
    tokens: [TOKEN],
    logger: stack.logger,
    registry: new Registry(),
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const database = db.databaseName;
  return {
    database,
    app,
    cliCsv: (args) =>
      runCli(
        stack,
        ['query', ...args, '--format', 'csv', '--database', database],
        '',
        () => options.nowMs,
      ),
    apiCsv: (route, query) => {
      const search = new URLSearchParams([
        ...query.map(([k, v]): [string, string] => [k, String(v)]),
        ['format', 'csv'],
      ]);
      return fetch(`${base}/api/v1/${route}?${search.toString()}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
    },
  };
}
