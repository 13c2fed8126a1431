/**
 * The alert rules and the Grafana dashboard on a real Prometheus (the local stack's optional
 * part), scraping real processes: the four workers, the scheduler and the API, under load from
 * `tickertape loadgen`. Every dashboard query must return data; stopping the minute worker must
 * make the level-behind alert fire for level="minute", and starting it again must resolve it.
 * The rules are the real file's, with `for:` and the lag threshold cut to seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  freePort,
  spawnNode,
  spawnService,
  TestStack,
  waitFor,
  waitHealthy,
  type ServiceProcess,
} from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { readFile } from 'node:fs/promises';
import { LocalPrometheus, repositoryRoot, rulesForTest } from '../support/prometheus.js';

const WORKER_STORES = ['minute', 'hour', 'day', 'segments'] as const;
const TOKEN = 'prometheus-e2e-token-0123456789';
const BEHIND_ALERT = 'TickertapeLevelBehind';

interface DashboardPanel {
  title: string;
  targets: { expr: string }[];
}

describe('alerts and dashboard on a real Prometheus', () => {
  let stack: TestStack;
  let prometheus: LocalPrometheus;
  let topic: string;
  const processes = new Map<string, ServiceProcess>();
  const ports = new Map<string, number>();
  let workerEnv: (store: string) => Record<string, string>;

  const dir = (service: string) => `${repositoryRoot}/services/${service}`;

  async function startWorker(store: string): Promise<void> {
    const worker = spawnService(dir('rollup-worker'), workerEnv(store));
    processes.set(store, worker);
    await waitHealthy(worker, `http://127.0.0.1:${ports.get(store)}/health`);
  }

  const levelBehind = async (state: 'firing' | 'any') =>
    (await prometheus.alerts()).filter(
      (a) =>
        a.labels.alertname === BEHIND_ALERT &&
        a.labels.level === 'minute' &&
        (state === 'any' || a.state === state),
    );

  beforeAll(async () => {
    prometheus = LocalPrometheus.fromEnvironment(`e2e-${process.pid}`);
    stack = await TestStack.open('prometheus');
    topic = await stack.createTopic({
      partitions: 2,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    const dlqTopic = await stack.createTopic();
    const db = testDatabase(stack);
    const base = {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      SCHEMA_REGISTRY_URL: stack.env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
      MONGODB_DATABASE: db.databaseName,
      TOPIC: topic,
      LOG_LEVEL: 'warn',
    };
    // stack.name makes a new unique name per call: one per store, shared by workers and scheduler.
    const groups = new Map(WORKER_STORES.map((store) => [store as string, stack.name(store)]));
    const group = (store: string) => groups.get(store)!;
    for (const name of [...WORKER_STORES, 'scheduler', 'api']) ports.set(name, await freePort());
    workerEnv = (store) => ({
      ...base,
      ROLLUP_LEVEL: store,
      DLQ_TOPIC: dlqTopic,
      GROUP_ID: group(store),
      HTTP_PORT: String(ports.get(store)),
      FLUSH_MAX_WAIT_MS: '100',
      FLUSH_MIN_BYTES: '1',
      // Held records count as lag: the budgets stay well under the level-behind alert's threshold,
      // as the defaults (60 s at most) do under its 120 s (here scaled down to 5 s).
      FRESHNESS_BUDGET_MS: '1000',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    const scheduler = spawnService(dir('scheduler'), {
      ...base,
      FINALITY_GROUPS: `minute=${group('minute')},hour=${group('hour')},day=${group('day')}`,
      SEGMENT_GROUP: group('segments'),
      GROUP_LAG_EVERY_MS: '1000',
      FINALIZE_EVERY_MS: '1000',
      BULLMQ_PREFIX: stack.redisPrefix(),
      SCHEDULER_QUEUE: stack.name('queue'),
      HTTP_PORT: String(ports.get('scheduler')),
    });
    processes.set('scheduler', scheduler);
    const api = spawnService(dir('api'), {
      ...base,
      API_TOKENS: TOKEN,
      HTTP_PORT: String(ports.get('api')),
    });
    processes.set('api', api);
    await Promise.all([
      ...WORKER_STORES.map((store) => startWorker(store)),
      waitHealthy(scheduler, `http://127.0.0.1:${ports.get('scheduler')}/health`),
      waitHealthy(api, `http://127.0.0.1:${ports.get('api')}/health`),
    ]);

    const target = (name: string) => `127.0.0.1:${ports.get(name)}`;
    await prometheus.scrape([
      ...WORKER_STORES.map((store) => ({
        targets: [target(store)],
        labels: { job: 'tickertape-worker', level: store },
      })),
      { targets: [target('scheduler')], labels: { job: 'tickertape-scheduler' } },
      { targets: [target('api')], labels: { job: 'tickertape-api' } },
    ]);
    const rules = rulesForTest(
      await readFile(`${repositoryRoot}/infra/prometheus/tickertape-alerts.yml`, 'utf8'),
      '2s',
      { [BEHIND_ALERT]: 5 },
    );
    await prometheus.loadRules(rules.yaml);
    await prometheus.waitForRules(rules.alerts);

    // Load for the whole test; it outlives the stop and restart of the minute worker.
    processes.set(
      'loadgen',
      spawnNode(
        dir('cli'),
        [
          '--import',
          'tsx',
          '--conditions=source',
          'src/main.ts',
          'loadgen',
          '--profile',
          'traffic',
          '--series',
          '20',
          '--rate',
          '100',
          '--duration',
          '10m',
          '--topic',
          topic,
          '--no-progress',
        ],
        base,
      ),
    );
    // Bad records, for the dead letters panel: not an Avro frame of the registry.
    const producer = stack.kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'bad', value: 'not a tick' }] });
    await producer.disconnect();
  }, 180_000);

  afterAll(async () => {
    for (const process of processes.values()) process.child.kill('SIGTERM');
    await Promise.all([...processes.values()].map((p) => p.exited));
    await prometheus?.forget();
    await stack?.close();
  }, 60_000);

  it('answers every dashboard query with data', async () => {
    // API traffic, for its request and latency panels.
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`http://127.0.0.1:${ports.get('api')}/api/v1/levels`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
    }
    const dashboard = JSON.parse(
      await readFile(`${repositoryRoot}/infra/grafana/tickertape.json`, 'utf8'),
    ) as { panels: DashboardPanel[] };
    // Grafana's variables, as Grafana would fill them: every level, a rate window of 30 s.
    const queries = dashboard.panels.flatMap((panel) =>
      panel.targets.map((t) => ({
        panel: panel.title,
        expr: t.expr.replaceAll('$level', '.*').replaceAll('$__rate_interval', '30s'),
      })),
    );
    expect(queries.length).toBeGreaterThanOrEqual(12);
    const empty = async () => {
      const answers = await Promise.all(
        queries.map(async (q) => ({ ...q, rows: (await prometheus.query(q.expr)).length })),
      );
      return answers.filter((a) => a.rows === 0).map((a) => `${a.panel}: ${a.expr}`);
    };
    let missing: string[] = [];
    await waitFor(async () => (missing = await empty()).length === 0, {
      description: 'every dashboard query to return data',
      timeoutMs: 90_000,
    }).catch(() => undefined);
    expect(missing).toEqual([]);
  }, 120_000);

  it('fires the level-behind alert for a stopped minute worker and resolves it after a restart', async () => {
    expect(await levelBehind('any')).toEqual([]);
    const minute = processes.get('minute')!;
    minute.child.kill('SIGTERM');
    expect((await minute.exited).code).toBe(0);

    const firing = await waitFor(
      async () => ((await levelBehind('firing')).length > 0 ? true : undefined),
      {
        description: `${BEHIND_ALERT} firing for level="minute"`,
        timeoutMs: 90_000,
      },
    );
    expect(firing).toBe(true);
    // Only the stopped level is behind.
    const others = (await prometheus.alerts()).filter(
      (a) => a.labels.alertname === BEHIND_ALERT && a.labels.level !== 'minute',
    );
    expect(others).toEqual([]);

    await startWorker('minute');
    await waitFor(async () => (await levelBehind('any')).length === 0, {
      description: `${BEHIND_ALERT} to resolve once the minute worker caught up`,
      timeoutMs: 90_000,
    });
  }, 240_000);
});
