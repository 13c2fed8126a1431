import { seriesKey, type Tick } from '@tickertape/tick';
import type { Collection, Db, Document } from 'mongodb';
import type { Design } from './consume.js';

/** The per-tick designs write into this collection of their own database. */
export const TICKS_COLLECTION = 'ticks';

/**
 * The seeds' document-per-event, kept lean: the series key, the event time and the values.
 * Metric and tags are not repeated (the key holds them), which favours the naive designs' size.
 */
export interface TickDocument {
  series: string;
  ts: Date;
  fields: Record<string, number>;
  strings: Record<string, string>;
}

export function tickDocument(tick: Tick): TickDocument {
  return {
    series: seriesKey(tick.metric, tick.tags),
    ts: new Date(tick.ts),
    fields: tick.fields,
    strings: tick.strings,
  };
}

/**
 * The index a per-tick collection needs to answer per-series time ranges (the read side's
 * queries): created before consuming, so C and D pay for it on every insert, as they would.
 */
export const SERIES_TS_INDEX = { name: 'series_1_ts_1', key: { series: 1, ts: 1 } } as const;

/** Creates the per-tick collection (with the {series, ts} index when `indexed`) before the clock starts. */
export async function perTickCollection<T extends Document = TickDocument>(
  db: Db,
  indexed: boolean,
): Promise<Collection<T>> {
  const collection = await db.createCollection<T>(TICKS_COLLECTION);
  if (indexed) {
    await collection.createIndex({ ...SERIES_TS_INDEX.key }, { name: SERIES_TS_INDEX.name });
  }
  return collection;
}

/** E's documents carry their natural key as `_id`. */
export type KeyedTickDocument = TickDocument & { _id: string };

/** A: decode and drop: what kafkajs and the codec cost alone, the ceiling for everyone. */
export const noOpDesign: Design = {
  handle: (ticks) => Promise.resolve({ ticks: ticks.length, ops: 0, requests: 0 }),
};

/** C: one awaited insertOne per tick (document per event). */
export function naiveDesign(collection: Collection<TickDocument>): Design {
  return {
    async handle(ticks, _partition, stop) {
      let handled = 0;
      for (const tick of ticks) {
        if (stop(handled)) break;
        await collection.insertOne(tickDocument(tick));
        handled += 1;
      }
      return { ticks: handled, ops: handled, requests: handled };
    },
  };
}

/** D: one insertMany of one document per tick for each fetched batch. */
export function insertManyDesign(collection: Collection<TickDocument>): Design {
  return {
    async handle(ticks) {
      await collection.insertMany(ticks.map(tickDocument), { ordered: false });
      return { ticks: ticks.length, ops: ticks.length, requests: 1 };
    },
  };
}

/**
 * E: what a generic Kafka sink does: one upsert per tick keyed by the record's natural id
 * (series and event time, so a redelivery overwrites itself), `$set` of the whole tick,
 * in one unordered bulk write per fetched batch.
 */
export function sinkDesign(collection: Collection<KeyedTickDocument>): Design {
  return {
    async handle(ticks) {
      await collection.bulkWrite(
        ticks.map((tick) => {
          const doc = tickDocument(tick);
          return {
            updateOne: {
              filter: { _id: `${doc.series}:${tick.ts}` },
              update: { $set: doc },
              upsert: true,
            },
          };
        }),
        { ordered: false },
      );
      return { ticks: ticks.length, ops: ticks.length, requests: 1 };
    },
  };
}
