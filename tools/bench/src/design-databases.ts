import type { Logger } from '@tickertape/logger';
import { MongoClient, type Db, type Document } from 'mongodb';
import { TICKS_COLLECTION } from './designs.js';

/**
 * A naive design's database, through the driver: the baselines C–E store ticks their own way
 * (a document per tick), outside our store, so they keep a driver connection of their own. Our
 * pipeline's databases go through `@tickertape/store` instead.
 */
export type DesignDb = Db;

export interface DesignDatabases {
  db(name: string): DesignDb;
  close(): Promise<void>;
}

export async function openDesignDatabases(
  uri: string,
  appName: string,
  logger: Logger,
): Promise<DesignDatabases> {
  const client = new MongoClient(uri, { appName });
  client.on('topologyClosed', () => logger.debug('design databases closed'));
  await client.connect();
  return { db: (name) => client.db(name), close: () => client.close() };
}

/** The two questions of the reads step, asked of a per-tick collection (design D's). */
export interface PerTickReads {
  /** Per series: ticks and the sum of `field` in `[fromMs, toMs)`. */
  windowSums(
    series: readonly string[],
    field: string,
    fromMs: number,
    toMs: number,
  ): Promise<{ series: string; n: number; sum: number }[]>;
  /** Each series' values of `field` in `[fromMs, toMs)`: the ground truth of a quantile. */
  windowValues(
    series: readonly string[],
    field: string,
    fromMs: number,
    toMs: number,
  ): Promise<Map<string, number[]>>;
  /** Every tick of a series in `[fromMs, toMs)` (a chart's raw points), in time order. */
  chartTicks(series: string, field: string, fromMs: number, toMs: number): Promise<unknown[]>;
}

export function perTickReads(db: DesignDb): PerTickReads {
  const ticks = db.collection<Document>(TICKS_COLLECTION);
  return {
    async windowSums(series, field, fromMs, toMs) {
      const rows = await ticks
        .aggregate<{ _id: string; n: number; sum: number }>([
          {
            $match: {
              series: { $in: [...series] },
              ts: { $gte: new Date(fromMs), $lt: new Date(toMs) },
            },
          },
          { $group: { _id: '$series', n: { $sum: 1 }, sum: { $sum: `$fields.${field}` } } },
        ])
        .toArray();
      return rows.map((row) => ({ series: row._id, n: row.n, sum: row.sum }));
    },
    async windowValues(series, field, fromMs, toMs) {
      const rows = await ticks
        .find(
          { series: { $in: [...series] }, ts: { $gte: new Date(fromMs), $lt: new Date(toMs) } },
          { projection: { _id: 0, series: 1, [`fields.${field}`]: 1 } },
        )
        .toArray();
      const values = new Map<string, number[]>();
      for (const row of rows) {
        const v = (row.fields as Record<string, unknown> | undefined)?.[field];
        if (typeof v !== 'number') continue;
        const key = row.series as string;
        values.set(key, [...(values.get(key) ?? []), v]);
      }
      return values;
    },
    chartTicks: (series, field, fromMs, toMs) =>
      ticks
        .find(
          { series, ts: { $gte: new Date(fromMs), $lt: new Date(toMs) } },
          { projection: { _id: 0, ts: 1, [`fields.${field}`]: 1 } },
        )
        .sort({ ts: 1 })
        .toArray(),
  };
}
