import {
  freePort,
  spawnService,
  waitHealthy,
  type ServiceProcess,
  type TestStack,
} from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import type { VerifyReport } from '@tickertape/verify';
import { Partitioners } from 'kafkajs';
import type { Db } from 'mongodb';
import { fileURLToPath } from 'node:url';
import { runCli, stackEnv } from './cli.js';

const workerDir = fileURLToPath(new URL('../../../rollup-worker', import.meta.url));

export const STORES = ['minute', 'hour', 'day', 'segments'] as const;
export type Store = (typeof STORES)[number];

export interface PipelineTopics {
  topic: string;
  dlqTopic: string;
  database: string;
}

/**
 * The real workers — one per rollup level and the segment store — as processes on one test topic,
 * each store in a consumer group of its own, and the CLI's `verify` and `replay` on them.
 */
/** A pipeline on a topic of its own, its database and the codec its producers encode with. */
export interface OpenedPipeline {
  pipeline: Pipeline;
  topic: string;
  db: Db;
  codec: TickCodec;
}

/** Sends `ticks` to `topic`, keyed by series as producers do, in one batch. */
export async function publishTicks(
  stack: TestStack,
  topic: string,
  codec: TickCodec,
  ticks: readonly Tick[],
): Promise<void> {
  const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({
      topic,
      messages: await Promise.all(
        ticks.map(async (tick) => ({
          key: seriesKey(tick.metric, tick.tags),
          value: await codec.encode(tick),
        })),
      ),
    });
  } finally {
    await producer.disconnect();
  }
}

export class Pipeline {
  /**
   * A topic of `partitions`, a dead-letter topic, a database of the test's own and the tick
   * schema registered for the topic (not started: `start()` runs the workers).
   */
  static async open(stack: TestStack, partitions: number): Promise<OpenedPipeline> {
    const topic = await stack.createTopic({ partitions });
    const db = testDatabase(stack);
    const pipeline = new Pipeline(stack, {
      topic,
      dlqTopic: await stack.createTopic(),
      database: db.databaseName,
    });
    stack.subject(valueSubject(topic));
    const codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: valueSubject(topic),
    });
    return { pipeline, topic, db, codec };
  }

  readonly groups: Record<Store, string>;
  /** Each running worker's `/metrics` and `/health` port. */
  readonly ports = new Map<Store, number>();
  private readonly running = new Map<Store, ServiceProcess>();

  constructor(
    private readonly stack: TestStack,
    readonly topics: PipelineTopics,
  ) {
    this.groups = Object.fromEntries(STORES.map((store) => [store, stack.name(store)])) as Record<
      Store,
      string
    >;
  }

  /**
   * Starts the stores' workers and waits until each answers /health (unless `healthy` is false:
   * a worker set to crash may be gone before it is asked).
   */
  async start(
    stores: readonly Store[] = STORES,
    env: Record<string, string> = {},
    healthy = true,
  ): Promise<void> {
    await Promise.all(
      stores.map(async (store) => {
        const port = await freePort();
        const worker = spawnService(workerDir, {
          ...stackEnv(this.stack),
          MONGODB_DATABASE: this.topics.database,
          ROLLUP_LEVEL: store,
          TOPIC: this.topics.topic,
          DLQ_TOPIC: this.topics.dlqTopic,
          GROUP_ID: this.groups[store],
          HTTP_PORT: String(port),
          FLUSH_MAX_WAIT_MS: '100',
          FLUSH_MIN_BYTES: '1',
          FLUSH_MAX_TICKS: '300',
          // Held across fetches (FLUSH_MAX_WAIT_MS is 100), but visible soon enough for a test.
          FRESHNESS_BUDGET_MS: '300',
          KAFKA_SESSION_TIMEOUT_MS: '6000',
          SEGMENT_MAX_POINTS: '50',
          ...env,
        });
        this.running.set(store, worker);
        this.ports.set(store, port);
        if (healthy) await waitHealthy(worker, `http://127.0.0.1:${port}/health`);
      }),
    );
  }

  /** The worker of `store`, while it runs. */
  worker(store: Store): ServiceProcess | undefined {
    return this.running.get(store);
  }

  /** One counter of a running worker's /metrics (0 when it has no sample yet). */
  async metric(store: Store, name: string): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${this.ports.get(store)}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  /** Stops every running worker (SIGTERM) and waits for it to exit. */
  async stop(): Promise<void> {
    const workers = [...this.running.values()];
    this.running.clear();
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
  }

  /** `tickertape verify --format json` over every store, waiting up to `waitMs` for the groups. */
  async verify(waitMs = 90_000): Promise<{ code: number; report: VerifyReport }> {
    const run = await runCli(this.stack, [
      'verify',
      '--topic',
      this.topics.topic,
      '--dlq-topic',
      this.topics.dlqTopic,
      '--database',
      this.topics.database,
      ...STORES.flatMap((store) => ['--group', `${store}=${this.groups[store]}`]),
      '--segment-max-points',
      '50',
      '--wait-ms',
      String(waitMs),
      '--format',
      'json',
    ]);
    if (run.stdout === '') throw new Error(`verify printed nothing: ${run.stderr}`);
    return { code: run.code, report: JSON.parse(run.stdout) as VerifyReport };
  }

  /** `tickertape replay` of every store: the workers must be stopped. */
  async replayAll(): Promise<void> {
    for (const store of STORES) {
      const run = await runCli(this.stack, [
        'replay',
        '--store',
        store,
        '--group',
        this.groups[store],
        '--topic',
        this.topics.topic,
      ]);
      if (run.code !== 0) throw new Error(`replay of ${store} failed: ${run.stderr}`);
    }
  }
}
