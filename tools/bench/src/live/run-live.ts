import { bucketId, partitionOf, slotStart, type Level } from '@tickertape/buckets';
import { seriesKey } from '@tickertape/tick';
import type { Admin } from 'kafkajs';
import type { RollupStore } from '@tickertape/store';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Design } from '../consume.js';
import {
  insertManyDesign,
  perTickCollection,
  sinkDesign,
  type KeyedTickDocument,
} from '../designs.js';
import type { SeriesLoad } from '../tick-set.js';
import { consumerLag } from '@tickertape/clients';
import { LEVELS_RUN, startLevels } from '../workers.js';
import { DEFAULT_BUDGETS_MS } from './live-figures.js';
import {
  LIVE_DESIGNS,
  type LiveCellRun,
  type LiveDesignRun,
  type LiveOptions,
  type LiveStore,
} from './live-types.js';
import { LiveConsumer } from './live-consumer.js';
import { runLoadgen } from './loadgen-process.js';
import { MarkerProbe, type Marker, type MarkerLookup } from './markers.js';
import { MARKER_METRIC } from '../latency.js';
import { applySuggestedPolicy } from '../level-policy.js';

/**
 * After the producer stops (and the level's budget), how long the harness waits for a design to
 * commit everything: one that cannot keep up is stopped then and its unconsumed records reported.
 */
const SETTLE_SLACK_MS = 60_000;
/** Markers not seen this long after everything was committed count as never visible. */
const MARKER_GRACE_MS = 5_000;

/** Polls until `uncommitted()` is 0 or `deadline` (performance.now()) passes; returns what is left. */
async function settle(uncommitted: () => Promise<number>, deadline: number): Promise<number> {
  for (;;) {
    const left = await uncommitted();
    if (left === 0 || performance.now() > deadline) return left;
    await sleep(50);
  }
}

async function produced(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, p) => sum + Number(p.high), 0);
}

/**
 * The cell's load: the producer process at the cell's rate, then the markers stopped. Returns how
 * long it published, when it ended (performance.now()) and the records on the topic then.
 */
async function publish(
  options: LiveOptions,
  cell: SeriesLoad,
  topic: string,
  probe: MarkerProbe,
): Promise<{ producingSeconds: number; end: number; total: number }> {
  const started = performance.now();
  await runLoadgen(options.env, options.mode, {
    series: cell.series,
    rate: cell.series * cell.perSecond,
    durationMs: options.durationMs,
    topic,
    seed: options.seed,
  });
  await probe.stopSending();
  const end = performance.now();
  return {
    producingSeconds: (end - started) / 1000,
    end,
    total: await produced(options.admin, topic),
  };
}

function bucketLookup(store: RollupStore, level: Level): MarkerLookup {
  return async (pending) => {
    const byCollection = new Map<string, Map<string, Marker>>();
    for (const marker of pending) {
      const name = partitionOf(level, marker.ts).name;
      const ids = byCollection.get(name) ?? new Map<string, Marker>();
      ids.set(bucketId(level, marker.key, slotStart(level, marker.ts)), marker);
      byCollection.set(name, ids);
    }
    const seen = new Set<Marker>();
    for (const [name, ids] of byCollection) {
      const found = await store.partition(name).byIds([...ids.keys()]);
      for (const doc of found) seen.add(ids.get(doc._id)!);
    }
    return seen;
  };
}

async function ours(
  options: LiveOptions,
  cellIndex: number,
  cell: SeriesLoad,
  design: 'ours' | 'ours0',
): Promise<LiveDesignRun> {
  const { admin, logger } = options;
  const name = `live${cellIndex}${design}`;
  const { topic, codec } = await options.topic(name);
  const db = await options.database(name);
  const groupPrefix = options.group(name);
  const budgetMs = design === 'ours0' ? 0 : options.budgetMs;
  // `ours0` is the workers as they were before budgets and before the level policy.
  const modes = design === 'ours' ? await applySuggestedPolicy(db.rollups, cell.perSecond) : {};
  const vars: Record<string, string> =
    budgetMs === undefined ? {} : { FRESHNESS_BUDGET_MS: String(budgetMs) };
  const workers = await startLevels({
    env: options.env,
    admin,
    topic,
    dlqTopic: options.dlqTopic,
    database: db.name,
    groupPrefix,
    mode: options.mode,
    ...(options.workerConcurrency === undefined
      ? {}
      : { partitionsConcurrently: options.workerConcurrency }),
    vars,
    logger,
  });
  let probe: MarkerProbe | undefined;
  try {
    const before = await Promise.all(workers.map((w) => w.metrics()));
    probe = await MarkerProbe.start({
      kafka: options.kafka,
      codec,
      topic,
      everyMs: options.markerEveryMs,
      stores: LEVELS_RUN,
      lookups: new Map(LEVELS_RUN.map((level) => [level, bucketLookup(db.rollups, level)])),
    });
    const meter = options.stack.window();
    meter.start();
    const { producingSeconds, end, total } = await publish(options, cell, topic, probe);
    const atEnd = await Promise.all(workers.map((w) => w.metrics()));
    const settled = await Promise.all(
      workers.map(async (worker) => {
        const budget = budgetMs ?? DEFAULT_BUDGETS_MS[worker.spec.level];
        const unsettled = await Promise.race([
          settle(
            async () => (await consumerLag(admin, worker.spec.groupId, topic)).total,
            end + budget + SETTLE_SLACK_MS,
          ),
          worker.died,
        ]);
        return { unsettled, seconds: (performance.now() - end) / 1000 };
      }),
    );
    meter.stop();
    const latency = await probe.finish(MARKER_GRACE_MS);
    const after = await Promise.all(workers.map((w) => w.metrics()));
    const stores = workers.map((worker, i): LiveStore => {
      const delta = (name: string) => (after[i]!.get(name) ?? 0) - (before[i]!.get(name) ?? 0);
      return {
        store: worker.spec.level,
        consumed: delta('tickertape_ticks_consumed_total'),
        applied: delta('tickertape_ticks_applied_total'),
        ops: delta('tickertape_db_operations_total'),
        requests: delta('tickertape_bulk_writes_total'),
        cpuSeconds: delta('process_cpu_seconds_total'),
        backlogAtEnd: total - (atEnd[i]!.get('tickertape_ticks_consumed_total') ?? 0),
        settleSeconds: settled[i]!.seconds,
        unsettled: settled[i]!.unsettled,
        latency: latency.get(worker.spec.level)!,
      };
    });
    return { design, modes, produced: total, producingSeconds, stores, cpu: meter.result() };
  } finally {
    await probe?.abort();
    await Promise.all(workers.map((w) => w.stop()));
    await options.drop(db);
  }
}

async function perTick(
  options: LiveOptions,
  cellIndex: number,
  cell: SeriesLoad,
  design: 'D' | 'E',
): Promise<LiveDesignRun> {
  const { topic, codec } = await options.topic(`live${cellIndex}${design.toLowerCase()}`);
  const db = await options.database(`live${cellIndex}${design.toLowerCase()}`);
  const keyed = design === 'E';
  const write: Design = keyed
    ? sinkDesign(await perTickCollection<KeyedTickDocument>(db.designDb, false))
    : insertManyDesign(await perTickCollection(db.designDb, true));
  let probe: MarkerProbe | undefined;
  const consumer = await LiveConsumer.start({
    kafka: options.kafka,
    codec,
    topic,
    groupId: options.group(`live${cellIndex}${design.toLowerCase()}`),
    design: write,
    written: (ticks) =>
      probe?.written(
        'ticks',
        ticks.filter((t) => t.metric === MARKER_METRIC).map((t) => seriesKey(t.metric, t.tags)),
      ),
  });
  try {
    probe = await MarkerProbe.start({
      kafka: options.kafka,
      codec,
      topic,
      everyMs: options.markerEveryMs,
      stores: ['ticks'],
      lookups: new Map(),
    });
    const meter = options.stack.window();
    meter.start();
    const cpuAtStart = process.cpuUsage();
    const { producingSeconds, end, total } = await publish(options, cell, topic, probe);
    const backlogAtEnd = total - consumer.counts.ticks;
    const unsettled = await settle(() => {
      consumer.check();
      return Promise.resolve(total - consumer.counts.ticks);
    }, end + SETTLE_SLACK_MS);
    const settleSeconds = (performance.now() - end) / 1000;
    meter.stop();
    const cpu = process.cpuUsage(cpuAtStart);
    const latency = await probe.finish(MARKER_GRACE_MS);
    return {
      design,
      produced: total,
      producingSeconds,
      stores: [
        {
          store: 'ticks',
          consumed: consumer.counts.ticks,
          applied: consumer.counts.ticks,
          ops: consumer.counts.ops,
          requests: consumer.counts.requests,
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
          backlogAtEnd,
          settleSeconds,
          unsettled,
          latency: latency.get('ticks')!,
        },
      ],
      cpu: meter.result(),
    };
  } finally {
    await probe?.abort();
    await consumer.stop();
    await options.drop(db);
  }
}

/**
 * The live grid: for each cell, ours (a minute and an hour worker at their defaults), D and E in
 * turn, each consuming a topic of its own while `tickertape loadgen` publishes the cell's rate
 * for `durationMs` with the wall clock as event time.
 */
export async function runLiveGrid(options: LiveOptions): Promise<LiveCellRun[]> {
  const cells: LiveCellRun[] = [];
  for (const [index, cell] of options.cells.entries()) {
    const rate = cell.series * cell.perSecond;
    const designs: LiveDesignRun[] = [];
    for (const design of LIVE_DESIGNS) {
      options.logger.info({ cell, rate, design }, 'live cell');
      designs.push(
        design === 'ours' || design === 'ours0'
          ? await ours(options, index, cell, design)
          : await perTick(options, index, cell, design),
      );
    }
    cells.push({ cell, rate, durationMs: options.durationMs, designs });
  }
  return cells;
}
