/**
 * docs/data-layout.md cannot go stale: every ```js pipeline:<name> block in it is evaluated as
 * written (the same text an analyst pastes into mongosh), run against buckets written by the
 * real write path — RollupWriter per level, over shells preallocated with insertShells, with a
 * replayed flush — and its output compared with numbers computed here directly from the ticks.
 * Every ```js output:<name> block must be exactly what its pipeline returns, and every
 * ```js example:<name> document must match the bucket the writers produced (the doc trims
 * sub-maps with comments). Tick values are integers where sums are taken, so sums are exact.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  LEVELS,
  addToBins,
  partitionOf,
  quantileOfBins,
  type FoldInput,
  type Level,
  type SketchBins,
} from '@tickertape/buckets';
import type { Db, Document } from 'mongodb';
import type { RollupStore, ShellSeries } from '../../src/index.js';
import { PARTITION_INDEXES } from '../../src/mongo/partitions.js';
import { WATERMARKS_COLLECTION } from '../../src/mongo/watermarks.js';
import { StoreStack } from '../support/store-stack.js';

const DOC_PATH = fileURLToPath(new URL('../../../../docs/data-layout.md', import.meta.url));
const DOC = readFileSync(DOC_PATH, 'utf8');

const at = (iso: string) => Date.parse(iso);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

// ---------------------------------------------------------------------------------------------
// The doc's code blocks.

interface Block {
  kind: 'pipeline' | 'example' | 'output';
  name: string;
  code: string;
}

function docBlocks(markdown: string): Block[] {
  const fence = /^```js (pipeline|example|output):([\w-]+)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  return [...markdown.matchAll(fence)].map((match) => ({
    kind: match[1] as Block['kind'],
    name: match[2]!,
    code: match[3]!,
  }));
}

const BLOCKS = docBlocks(DOC);
const blockNamed = (kind: Block['kind'], name: string): Block => {
  const found = BLOCKS.filter((b) => b.kind === kind && b.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** What a mongosh statement asked for: one aggregate, or one find with an optional sort. */
type Operation =
  | { kind: 'aggregate'; collection: string; pipeline: Document[] }
  | {
      kind: 'find';
      collection: string;
      filter: Document;
      projection?: Document;
      sort?: Document;
    };

/** mongosh's helpers, as far as the doc uses them: ISODate and the `db` object. */
const ISODate = (text: string) => new Date(text);

/**
 * Evaluates a block in a fresh context that holds only `db` and `ISODate` (no require, no
 * process): `db.<collection>` and `db.getCollection(name)` record the one call made on them.
 */
function recordOperation(block: Block): Operation {
  const operations: Operation[] = [];
  const collection = (name: string) => ({
    aggregate(pipeline: Document[]) {
      operations.push({ kind: 'aggregate', collection: name, pipeline });
    },
    find(filter: Document, projection?: Document) {
      const operation: Operation = { kind: 'find', collection: name, filter, projection };
      operations.push(operation);
      const cursor = {
        sort(spec: Document) {
          operation.sort = spec;
          return cursor;
        },
      };
      return cursor;
    },
  });
  const db = new Proxy(
    {},
    {
      get: (_target, property) =>
        property === 'getCollection'
          ? collection
          : typeof property === 'string'
            ? collection(property)
            : undefined,
    },
  );
  vm.runInNewContext(
    block.code,
    { db, ISODate },
    {
      filename: `docs/data-layout.md (${block.kind}:${block.name})`,
      timeout: 1000,
    },
  );
  expect(operations).toHaveLength(1);
  return adopt(operations[0]!) as Operation;
}

async function runOperation(db: Db, operation: Operation): Promise<Document[]> {
  const collection = db.collection(operation.collection);
  if (operation.kind === 'aggregate') return collection.aggregate(operation.pipeline).toArray();
  let cursor = collection.find(operation.filter, { projection: operation.projection });
  if (operation.sort) cursor = cursor.sort(operation.sort);
  return cursor.toArray();
}

const runPipeline = (db: Db, name: string) =>
  runOperation(db, recordOperation(blockNamed('pipeline', name)));

/**
 * Copies a value made in the block's context into this one (jest compares constructors, and
 * `instanceof` fails across contexts): arrays and plain objects are rebuilt, Dates and RegExps
 * re-created, primitives kept.
 */
function adopt(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  switch (Object.prototype.toString.call(value)) {
    case '[object Array]':
      return (value as unknown[]).map(adopt);
    case '[object Date]':
      return new Date((value as Date).getTime());
    case '[object RegExp]':
      return new RegExp((value as RegExp).source, (value as RegExp).flags);
    default:
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, adopt(v)]));
  }
}

/** An example document or output as the doc shows it (mongosh literals, trimmed by comments). */
function literal(block: Block): Document | Document[] {
  return adopt(
    vm.runInNewContext(
      `(${block.code.trim().replace(/;$/, '')})`,
      { ISODate },
      { filename: `docs/data-layout.md (${block.kind}:${block.name})`, timeout: 1000 },
    ),
  ) as Document | Document[];
}

// ---------------------------------------------------------------------------------------------
// The ticks: traffic sensors after seed 001 and two stock symbols.

interface Sensor {
  sensor: string;
  segment: string;
  key: string;
  kafkaPartition: number;
}

/** Series keys written out as `seriesKey` (@tickertape/tick) makes them: tags sorted, `:` escaped. */
const SENSORS: Sensor[] = [
  {
    sensor: '900006',
    segment: 'I80_mile34',
    key: 'traffic|segment=I80_mile34,sensor=900006',
    kafkaPartition: 0,
  },
  {
    sensor: '900014',
    segment: 'I80_mile34',
    key: 'traffic|segment=I80_mile34,sensor=900014',
    kafkaPartition: 1,
  },
  // Two whose keys start like 900006's: an `_id` range for 900006 must not pick them up.
  {
    sensor: '9000061',
    segment: 'I80_mile34',
    key: 'traffic|segment=I80_mile34,sensor=9000061',
    kafkaPartition: 0,
  },
  {
    sensor: '900006:north',
    segment: 'I80_mile34',
    key: 'traffic|segment=I80_mile34,sensor=900006\\:north',
    kafkaPartition: 1,
  },
  {
    sensor: '900001',
    segment: 'I5_mile1',
    key: 'traffic|segment=I5_mile1,sensor=900001',
    kafkaPartition: 1,
  },
];
/** A sensor that has only shells (it went quiet): every pipeline must leave it out. */
const IDLE: Sensor = {
  sensor: '900020',
  segment: 'I5_mile7',
  key: 'traffic|segment=I5_mile7,sensor=900020',
  kafkaPartition: 0,
};

const CONDITIONS = ['clear', 'rain', 'fog', 'snow'] as const;

/** Minutes with two readings each; the first and last lie outside 2026-11-21. */
const TRAFFIC_MINUTES = [
  '2026-11-20T23:59',
  '2026-11-21T08:15',
  ...Array.from({ length: 20 }, (_, i) => {
    const ts = at('2026-11-21T10:50:00Z') + i * MINUTE;
    return new Date(ts).toISOString().slice(0, 16);
  }),
  '2026-11-21T13:42',
  '2026-11-22T00:00',
];

interface Stock {
  symbol: string;
  exchange: string;
  key: string;
  kafkaPartition: number;
  base: number;
}

const STOCKS: Stock[] = [
  {
    symbol: 'ACME',
    exchange: 'NYSE',
    key: 'stock.tick|exchange=NYSE,symbol=ACME',
    kafkaPartition: 2,
    base: 187.25,
  },
  {
    symbol: 'GLBX',
    exchange: 'NASDAQ',
    key: 'stock.tick|exchange=NASDAQ,symbol=GLBX',
    kafkaPartition: 2,
    base: 42.5,
  },
];

interface TrafficTick {
  sensor: Sensor;
  ts: number;
  speed: number;
  travelTime: number;
  conditions: string;
}

interface StockTick {
  stock: Stock;
  ts: number;
  price: number;
  volume: number;
}

type Delivered<T> = T & { offset: number; input: FoldInput };

function trafficTicks(): TrafficTick[] {
  return SENSORS.flatMap((sensor, j) =>
    TRAFFIC_MINUTES.flatMap((minute, i) =>
      [7 + j, 31 + j].map((second, k) => ({
        sensor,
        ts: at(`${minute}:00Z`) + second * SECOND,
        speed: 35 + ((i * 17 + k * 5 + j * 29) % 40),
        travelTime: 40 + ((i * 13 + k + j * 7) % 30),
        conditions: CONDITIONS[(Math.floor(i / 7) + j) % CONDITIONS.length]!,
      })),
    ),
  );
}

function stockTicks(): StockTick[] {
  return STOCKS.flatMap((stock, j) =>
    [14, 15, 16].flatMap((hour) =>
      Array.from({ length: 6 }, (_, k) => ({
        stock,
        ts: at(`2026-11-21T${hour}:00:00Z`) + (k * 9 + 3 + j) * MINUTE + k * 5 * SECOND,
        price: stock.base + ((k * 31 + hour * 7) % 50) / 4,
        volume: 100 + ((k * 37 + hour * 11 + j) % 300),
      })),
    ),
  );
}

/**
 * The delivery: every tick in a scrambled order (event times out of order within a bucket),
 * offsets per Kafka partition in that order, cut into three flushes.
 */
function deliver(): {
  traffic: Delivered<TrafficTick>[];
  stocks: Delivered<StockTick>[];
  flushes: FoldInput[][];
} {
  const all: (TrafficTick | StockTick)[] = [...trafficTicks(), ...stockTicks()];
  expect(all.length).toBeLessThan(1009);
  const order = all
    .map((tick, i) => ({ tick, rank: (i * 7919) % 1009 }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ tick }) => tick);
  const nextOffset = new Map<number, number>();
  const traffic: Delivered<TrafficTick>[] = [];
  const stocks: Delivered<StockTick>[] = [];
  const inputs: FoldInput[] = [];
  for (const tick of order) {
    const partition = 'sensor' in tick ? tick.sensor.kafkaPartition : tick.stock.kafkaPartition;
    const offset = nextOffset.get(partition) ?? 0;
    nextOffset.set(partition, offset + 1);
    const input: FoldInput =
      'sensor' in tick
        ? {
            seriesKey: tick.sensor.key,
            metric: 'traffic',
            tags: { segment: tick.sensor.segment, sensor: tick.sensor.sensor },
            ts: tick.ts,
            fields: { speed: tick.speed, travel_time: tick.travelTime },
            strings: { conditions: tick.conditions },
            kafkaPartition: partition,
            offset,
          }
        : {
            seriesKey: tick.stock.key,
            metric: 'stock.tick',
            tags: { exchange: tick.stock.exchange, symbol: tick.stock.symbol },
            ts: tick.ts,
            fields: { price: tick.price, volume: tick.volume },
            strings: {},
            kafkaPartition: partition,
            offset,
          };
    inputs.push(input);
    if ('sensor' in tick) traffic.push({ ...tick, offset, input });
    else stocks.push({ ...tick, offset, input });
  }
  const third = Math.ceil(inputs.length / 3);
  return {
    traffic,
    stocks,
    flushes: [inputs.slice(0, third), inputs.slice(third, 2 * third), inputs.slice(2 * third)],
  };
}

const trafficSeries = (sensor: Sensor): ShellSeries => ({
  seriesKey: sensor.key,
  metric: 'traffic',
  tags: { segment: sensor.segment, sensor: sensor.sensor },
  fields: ['speed', 'travel_time'],
});

/** Shells as the scheduler preallocates them; some get written into, some stay empty. */
const SHELLS: Readonly<Record<Level, [ShellSeries, string][]>> = {
  minute: [
    [trafficSeries(SENSORS[0]!), '2026-11-21T10:55:00Z'], // written into
    [trafficSeries(SENSORS[0]!), '2026-11-21T10:49:00Z'], // stays empty
    [trafficSeries(IDLE), '2026-11-21T10:58:00Z'],
  ],
  hour: [
    [trafficSeries(SENSORS[0]!), '2026-11-21T10:00:00Z'],
    [trafficSeries(IDLE), '2026-11-21T10:00:00Z'],
    [trafficSeries(IDLE), '2026-11-21T11:00:00Z'],
  ],
  day: [
    [trafficSeries(IDLE), '2026-11-21T00:00:00Z'],
    [
      {
        seriesKey: STOCKS[0]!.key,
        metric: 'stock.tick',
        tags: { exchange: STOCKS[0]!.exchange, symbol: STOCKS[0]!.symbol },
        fields: ['price', 'volume'],
      },
      '2026-11-21T00:00:00Z',
    ],
  ],
};

// ---------------------------------------------------------------------------------------------
// Expected answers, straight from the ticks.

const isBefore = (a: { ts: number; offset: number }, b: { ts: number; offset: number }) =>
  a.ts < b.ts || (a.ts === b.ts && a.offset < b.offset);

function totals<T extends { ts: number; offset: number }>(ticks: T[], value: (t: T) => number) {
  expect(ticks.length).toBeGreaterThan(0);
  let first = ticks[0]!;
  let last = ticks[0]!;
  for (const tick of ticks) {
    if (isBefore(tick, first)) first = tick;
    if (isBefore(last, tick)) last = tick;
  }
  const values = ticks.map(value);
  return {
    n: ticks.length,
    sum: values.reduce((a, b) => a + b, 0),
    min: Math.min(...values),
    max: Math.max(...values),
    first,
    last,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const within = (ts: number, from: string, until: string) => ts >= at(from) && ts < at(until);

/**
 * A host's CPU once a minute from 12:00 (minutes 30–34 missing), Kafka partition 3: a metric the
 * level policy skips at the minute level and keeps compact at the hour level.
 */
function cpuTicks(): FoldInput[] {
  const ticks: FoldInput[] = [];
  for (let i = 0; i < 60; i++) {
    if (i >= 30 && i < 35) continue;
    ticks.push({
      seriesKey: 'mms.cpu|host=db1',
      metric: 'mms.cpu',
      tags: { host: 'db1' },
      ts: at('2026-11-21T12:00:00Z') + i * MINUTE + (20 + (i % 10)) * SECOND,
      fields: { user: 10 + ((i * 7) % 23), system: 2 + (i % 5) },
      strings: {},
      kafkaPartition: 3,
      offset: ticks.length,
    });
  }
  return ticks;
}

// ---------------------------------------------------------------------------------------------

describe('docs/data-layout.md: layout and pipelines on buckets from the real write path', () => {
  let stack: StoreStack;
  let store: RollupStore;
  let db: Db;
  let traffic: Delivered<TrafficTick>[];
  let stocks: Delivered<StockTick>[];

  beforeAll(async () => {
    stack = await StoreStack.open('layout');
    ({ store, db } = await stack.fresh());
    // Stocks keep sketches and VWAP's parts (price weighted by volume) at every level.
    const since = at('2026-11-20T00:00:00Z');
    await store.changeMetricPolicy({ kind: 'sketch', metrics: ['stock.tick'], on: true }, since);
    await store.changeMetricPolicy(
      { kind: 'weight', metric: 'stock.tick', field: 'price', by: 'volume' },
      since,
    );
    const delivery = deliver();
    traffic = delivery.traffic;
    stocks = delivery.stocks;
    for (const level of LEVELS) {
      const shells = SHELLS[level].map(([series, iso]) => ({
        series,
        start: at(iso),
        compact: false,
      }));
      expect(await store.insertShells(level, shells)).toBe(shells.length);
      const writer = store.writer(level);
      for (const flush of delivery.flushes) await writer.apply(flush);
      // A redelivered flush (crash before the commit) changes nothing.
      const replay = await writer.apply(delivery.flushes[1]!);
      expect(replay.conflicts).toBe(replay.buckets);
    }
    await store.changeLevelPolicy('minute', ['mms.cpu'], 'skip', at('2026-11-21T11:00:00Z'));
    await store.changeLevelPolicy('hour', ['mms.cpu'], 'compact', at('2026-11-21T11:00:00Z'));
    for (const level of LEVELS) await store.writer(level).apply(cpuTicks());
  });
  afterAll(() => stack.close());

  /** A bucket id as the doc describes it: key, `:`, the UTC stamp cut to the level. */
  const idOf = (key: string, slot: number, digits: number) =>
    `${key}:${new Date(slot).toISOString().replace(/\D/g, '').slice(0, digits)}`;
  const slotOf = (ts: number, size: number) => Math.floor(ts / size) * size;
  const sensorTicks = (sensor: Sensor) => traffic.filter((t) => t.sensor === sensor);
  const [S0] = SENSORS as [Sensor, ...Sensor[]];

  /** Average speed per segment over 2026-11-21, with the latest conditions. */
  function segmentSpeeds(): Document[] {
    const day = traffic.filter((t) => within(t.ts, '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z'));
    return [...groupBy(day, (t) => t.sensor.segment)].map(([segment, ticks]) => {
      const speed = totals(ticks, (t) => t.speed);
      return { segment, n: speed.n, avg: speed.sum / speed.n, conditions: speed.last.conditions };
    });
  }

  /** Each pipeline of the doc: run it as written, compare with the ticks, return its rows. */
  const checks: Record<string, () => Promise<Document[]>> = {
    'segment-speed-hour': async () => {
      const rows = await runPipeline(db, 'segment-speed-hour');
      expect(rows).toEqual(segmentSpeeds());
      expect(rows.map((r) => r.segment as string)).not.toContain(IDLE.segment); // only shells there
      return rows;
    },

    'segment-speed-day': async () => {
      const rows = await runPipeline(db, 'segment-speed-day');
      expect(rows).toEqual(segmentSpeeds());
      return rows;
    },

    'series-range': async () => {
      const hour = sensorTicks(S0).filter((t) =>
        within(t.ts, '2026-11-21T10:00:00Z', '2026-11-21T11:00:00Z'),
      );
      const expected = [...groupBy(hour, (t) => String(slotOf(t.ts, MINUTE)))].map(
        ([slot, ticks]) => ({
          _id: idOf(S0.key, Number(slot), 12),
          start: new Date(Number(slot)),
          n: ticks.length,
        }),
      );
      const rows = await runPipeline(db, 'series-range');
      expect(rows).toEqual(expected);

      // What the doc says about the alternatives: without `n > 0` the preallocated, empty
      // 10:49 shell comes along; the key used as a regex matches far more than the series.
      const minutes = db.collection<Document & { _id: string }>('rollup_minute_20261121');
      const range = {
        $gte: `${S0.key}:2026112110`,
        $lt: `${S0.key}:2026112111`,
      };
      const padded = await minutes.find({ _id: range }).sort({ _id: 1 }).toArray();
      expect(padded.map((b) => [b._id, b.n as number])).toEqual([
        [`${S0.key}:202611211049`, 0],
        ...expected.map((b) => [b._id, b.n]),
      ]);
      const naive = await minutes.find({ _id: new RegExp(`^${S0.key}:2026112110`) }).toArray();
      expect(naive.some((b) => b.series !== S0.key)).toBe(true);
      // All of the series' buckets in a partition: `<key>:` up to `<key>;`, nothing else.
      const whole = await minutes
        .find({ _id: { $gte: `${S0.key}:`, $lt: `${S0.key};` } })
        .toArray();
      const day = sensorTicks(S0).filter((t) =>
        within(t.ts, '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z'),
      );
      expect(whole.map((b) => b._id).sort()).toEqual(
        [
          `${S0.key}:202611211049`, // the empty shell
          ...new Set(day.map((t) => idOf(S0.key, slotOf(t.ts, MINUTE), 12))),
        ].sort(),
      );
      return rows;
    },

    'minute-points': async () => {
      const hour = sensorTicks(S0).filter((t) =>
        within(t.ts, '2026-11-21T10:00:00Z', '2026-11-21T11:00:00Z'),
      );
      const expected = [...groupBy(hour, (t) => String(slotOf(t.ts, MINUTE)))].map(
        ([slot, ticks]) => {
          const speed = totals(ticks, (t) => t.speed);
          return {
            minute: (Number(slot) % HOUR) / MINUTE,
            at: new Date(Number(slot)),
            n: speed.n,
            avg: speed.sum / speed.n,
            min: speed.min,
            max: speed.max,
          };
        },
      );
      // The hour bucket is a shell that was written into: its other 50 minutes are padding.
      const bucket = await db
        .collection<Document & { _id: string }>('rollup_hour_202611')
        .findOne({ _id: `${S0.key}:2026112110` });
      const speed = (bucket?.f as Record<string, Document>).speed;
      expect(Object.keys(speed?.m as Document)).toHaveLength(60);
      const rows = await runPipeline(db, 'minute-points');
      expect(rows).toEqual(expected);
      return rows;
    },

    'ten-minute-average': async () => {
      const window = traffic.filter((t) =>
        within(t.ts, '2026-11-21T10:55:00Z', '2026-11-21T11:05:00Z'),
      );
      const expected = [...groupBy(window, (t) => t.sensor.sensor)].map(([sensor, ticks]) => {
        const speed = totals(ticks, (t) => t.speed);
        return { sensor, n: speed.n, avg: speed.sum / speed.n };
      });
      expect(expected).toHaveLength(SENSORS.length);
      const rows = await runPipeline(db, 'ten-minute-average');
      expect(rows).toEqual(expected);
      return rows;
    },

    ohlc: async () => {
      const acme = stocks.filter((t) => t.stock === STOCKS[0]);
      const expected = [...groupBy(acme, (t) => String(slotOf(t.ts, HOUR)))].map(
        ([slot, ticks]) => {
          const price = totals(ticks, (t) => t.price);
          return {
            hour: new Date(Number(slot)),
            open: price.first.price,
            high: price.max,
            low: price.min,
            close: price.last.price,
            ticks: price.n,
            volume: totals(ticks, (t) => t.volume).sum,
          };
        },
      );
      expect(expected).toHaveLength(3); // of a day shell's 24 hours
      const rows = await runPipeline(db, 'ohlc');
      expect(rows).toEqual(expected);
      return rows;
    },

    'hourly-vwap-spread': async () => {
      const acme = stocks.filter((t) => t.stock === STOCKS[0]);
      const expected = [...groupBy(acme, (t) => String(slotOf(t.ts, HOUR)))].map(
        ([slot, ticks]) => {
          const price = totals(ticks, (t) => t.price);
          const sq = ticks.reduce((a, t) => a + t.price * t.price, 0);
          const xw = ticks.reduce((a, t) => a + t.price * t.volume, 0);
          const w = ticks.reduce((a, t) => a + t.volume, 0);
          const mean = price.sum / price.n;
          return {
            hour: new Date(Number(slot)),
            ticks: price.n,
            vwap: xw / w,
            variance: sq / price.n - mean * mean,
          };
        },
      );
      const rows = await runPipeline(db, 'hourly-vwap-spread');
      expect(rows).toEqual(expected);
      return rows;
    },

    'day-sketch': async () => {
      const acme = stocks.filter((t) => t.stock === STOCKS[0]);
      const bins: SketchBins = {};
      for (const t of acme) addToBins(bins, t.price);
      const expected = Object.entries(bins)
        .map(([bin, count]) => ({ bin, count }))
        .sort((a, b) => Number(a.bin) - Number(b.bin));
      const rows = await runPipeline(db, 'day-sketch');
      expect(rows).toEqual(expected);
      // The bins' values are within 1 % of the ticks' prices: the median of the day, say.
      const median = quantileOfBins(bins, 0.5)!;
      const sorted = acme.map((t) => t.price).sort((a, b) => a - b);
      const exact = sorted[Math.floor(0.5 * (sorted.length - 1))]!;
      expect(Math.abs(median - exact)).toBeLessThanOrEqual(0.01 * exact);
      return rows;
    },

    'second-values': async () => {
      const minute = sensorTicks(S0).filter((t) =>
        within(t.ts, '2026-11-21T10:55:00Z', '2026-11-21T10:56:00Z'),
      );
      const expected = [...groupBy(minute, (t) => String(slotOf(t.ts, SECOND)))].map(
        ([slot, ticks]) => ({
          second: (Number(slot) % MINUTE) / SECOND,
          at: new Date(Number(slot)),
          ticks: ticks.length,
          avg: ticks.reduce((sum, t) => sum + t.speed, 0) / ticks.length,
        }),
      );
      const rows = await runPipeline(db, 'second-values');
      expect(rows).toEqual(expected);
      return rows;
    },

    'compact-minutes': async () => {
      const expected = cpuTicks()
        .slice(0, 3)
        .map((tick) => {
          const minute = Math.floor((tick.ts - at('2026-11-21T12:00:00Z')) / MINUTE);
          return {
            minute,
            at: new Date(at('2026-11-21T12:00:00Z') + minute * MINUTE),
            ticks: 1,
            avg: tick.fields.user,
          };
        });
      const rows = await runPipeline(db, 'compact-minutes');
      expect(rows).toEqual(expected);
      return rows;
    },

    'slot-final': async () => {
      const operation = recordOperation(blockNamed('pipeline', 'slot-final'));
      const [final, notFinal, none] = [
        await stack.fresh(),
        await stack.fresh(),
        (await stack.fresh()).db,
      ];
      const now = at('2026-11-21T17:00:00Z');
      await final.store.advanceWatermarks({ hour: at('2026-11-21T11:00:00Z') }, now);
      await notFinal.store.advanceWatermarks({ hour: at('2026-11-21T10:00:00Z') }, now);
      expect(await runOperation(notFinal.db, operation)).toEqual([
        { _id: 'hour', finalBefore: new Date(at('2026-11-21T10:00:00Z')), final: false },
      ]);
      expect(await runOperation(none, operation)).toEqual([]);
      const rows = await runOperation(final.db, operation);
      expect(rows).toEqual([
        { _id: 'hour', finalBefore: new Date(at('2026-11-21T11:00:00Z')), final: true },
      ]);
      return rows;
    },

    'bucket-final': async () => {
      const day = sensorTicks(S0).filter((t) =>
        within(t.ts, '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z'),
      );
      const watermark = at('2026-11-21T11:00:00Z');
      const expected = (final: (start: number) => boolean) =>
        [...groupBy(day, (t) => String(slotOf(t.ts, HOUR)))].map(([slot, ticks]) => ({
          _id: idOf(S0.key, Number(slot), 10),
          start: new Date(Number(slot)),
          n: ticks.length,
          final: final(Number(slot)),
        }));
      // No watermark yet: nothing is final.
      expect(await db.collection(WATERMARKS_COLLECTION).countDocuments()).toBe(0);
      expect(await runPipeline(db, 'bucket-final')).toEqual(expected(() => false));
      await store.advanceWatermarks({ hour: watermark }, at('2026-11-21T17:00:00Z'));
      const rows = await runPipeline(db, 'bucket-final');
      expect(rows).toEqual(expected((start) => start + HOUR <= watermark));
      expect(rows.map((r) => r.final as boolean)).toEqual([true, true, false, false]);
      return rows;
    },
  };

  it('has a check for every pipeline in the doc, and every output belongs to a pipeline', () => {
    const names = (kind: Block['kind']) =>
      BLOCKS.filter((b) => b.kind === kind)
        .map((b) => b.name)
        .sort();
    expect(names('pipeline')).toEqual(Object.keys(checks).sort());
    expect(new Set(names('pipeline')).size).toBe(names('pipeline').length);
    for (const name of names('output')) expect(names('pipeline')).toContain(name);
    expect(names('example')).toEqual(['day', 'hour', 'hour-compact', 'minute', 'shell']);
    // No untested query hides in an untagged block.
    const untagged = [...DOC.matchAll(/^```js[ \t]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
    for (const code of untagged) expect(code).not.toMatch(/\.(aggregate|find|findOne)\(/);
  });

  it.each(Object.keys(checks))(
    'pipeline %s gives the numbers computed from the ticks (and the output the doc shows)',
    async (name) => {
      const rows = await checks[name]!();
      expect(rows.length).toBeGreaterThan(0);
      const output = BLOCKS.find((b) => b.kind === 'output' && b.name === name);
      if (output) expect(rows).toEqual(literal(output));
    },
  );

  it('shows example documents that match the buckets the writers produced', async () => {
    for (const block of BLOCKS.filter((b) => b.kind === 'example')) {
      const example = literal(block) as Document & { _id: string; level: Level; start: Date };
      const collection = partitionOf(example.level, example.start.getTime()).name;
      const bucket = await db
        .collection<Document & { _id: string }>(collection)
        .findOne({ _id: example._id });
      expect({ block: block.name, bucket }).toMatchObject({ block: block.name, bucket: example });
      // Shown fields are the bucket's fields: nothing invented at the top level.
      expect(Object.keys(bucket!)).toEqual(expect.arrayContaining(Object.keys(example)));
    }
  });

  it('describes the partition names and their indexes as the store creates them', async () => {
    const names = (await store.listPartitions()).map((range) => range.name);
    expect(names).toEqual([
      'rollup_day_2026',
      'rollup_hour_202611',
      'rollup_minute_20261120',
      'rollup_minute_20261121',
      'rollup_minute_20261122',
    ]);
    for (const name of names) {
      const indexes = (await db.collection(name).listIndexes().toArray()) as {
        name: string;
        key: Document;
      }[];
      expect(indexes.map((i) => i.name).sort()).toEqual(
        ['_id_', ...PARTITION_INDEXES.map((i) => i.name)].sort(),
      );
    }
    for (const { name, key } of PARTITION_INDEXES) {
      const keys = Object.entries(key)
        .map(([field, direction]) => `${field}: ${direction}`)
        .join(', ');
      expect(DOC).toContain(`| \`${name}\``);
      expect(DOC).toContain(`\`{ ${keys} }\``);
    }
    expect(DOC).toContain(`### \`${WATERMARKS_COLLECTION}\``);
  });
});
