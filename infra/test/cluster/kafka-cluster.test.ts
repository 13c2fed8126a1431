/**
 * `TT_KAFKA_BROKERS=3 bash infra/local/stack.sh …`: three KRaft brokers on loopback, in a stack
 * directory of their own (the developer's stack is left alone), driven as an operator and the
 * fault suite drive it — up, status, a broker restarted, one killed and started again, the
 * controller named, Toxiproxy in front, down — with a real Kafka client checking what it sees.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runProcess, waitFor } from '@tickertape/testing';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics } from '@tickertape/producer';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { repositoryRoot } from '../support/prometheus.js';

const stackDir = `${repositoryRoot}/.stack/cluster-test`;
// The developer's stack's settings (TT_*) and addresses stay out: this stack has its own.
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('TT_')),
);
const env = {
  ...inherited,
  TT_STACK_DIR: stackDir,
  TT_STACK_LIB: `${repositoryRoot}/.stack/lib`,
  TT_PORTS: 'auto',
  // Not the developer's stack's addresses: this stack's own, from `stack.sh env`.
  KAFKA_BROKERS: '',
  SCHEMA_REGISTRY_URL: '',
  MONGODB_URI: '',
  REDIS_URL: '',
};

const stack = async (args: string[], extra: Record<string, string> = {}) => {
  const run = await runProcess('bash', ['infra/local/stack.sh', ...args], {
    cwd: repositoryRoot,
    env: { ...env, ...extra },
  });
  return { ...run, output: `${run.stdout}${run.stderr}` };
};

/** The variables `stack.sh env` prints, unquoted. */
async function stackEnv(): Promise<Record<string, string>> {
  const { stdout } = await stack(['env']);
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^export /, '').split('='))
      .map(([name, value]) => [name!, value!.replaceAll('\\', '')]),
  );
}

/** No such process, or a zombie nobody has reaped yet (what `stack.sh` counts as not running). */
function gone(pid: number): boolean {
  try {
    return /^State:\s*Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

const admin = async (brokers: string) => {
  const kafka = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const client = kafka.admin();
  await client.connect();
  return client;
};

beforeAll(async () => {
  await rm(stackDir, { recursive: true, force: true });
}, 60_000);

afterAll(async () => {
  await stack(['down']);
  await rm(stackDir, { recursive: true, force: true });
}, 120_000);

describe('the local stack with TT_KAFKA_BROKERS=3', () => {
  it('starts three brokers that replicate every topic three times and need two in sync', async () => {
    const up = await stack(['up', 'kafka'], { TT_KAFKA_BROKERS: '3' });
    expect({ code: up.code, tail: up.output.slice(-300) }).toMatchObject({ code: 0 });
    const status = await stack(['status']);
    for (const broker of ['kafka-1', 'kafka-2', 'kafka-3'])
      expect(status.stdout).toMatch(new RegExp(`^${broker} +up `, 'm'));

    // Later commands keep the cluster without being told again.
    const { KAFKA_BROKERS } = await stackEnv();
    expect(KAFKA_BROKERS!.split(',')).toHaveLength(3);
    const client = await admin(KAFKA_BROKERS!);
    try {
      // Every broker is unfenced once `up` returns; the others' metadata learns of the last one
      // a moment later.
      await waitFor(async () => (await client.describeCluster()).brokers.length === 3, {
        timeoutMs: 30_000,
        description: 'three brokers in the metadata',
      });
      // As `tickertape topics create` does: no replication factor, the brokers' default.
      await ensureTopics(client, {
        topic: 'replicated',
        partitions: 3,
        dlqTopic: 'replicated-dlq',
      });
      // kafkajs asks a broker at random, and one may not know the new topic for a moment.
      const replicas = await waitFor(
        async () => {
          const { topics } = await client.fetchTopicMetadata({ topics: ['replicated'] });
          return topics[0]!.partitions.map((p) => p.replicas.length);
        },
        { timeoutMs: 30_000, description: "the topic's replicas" },
      );
      expect(replicas).toEqual([3, 3, 3]);
      const minInSync = await waitFor(
        async () => {
          const configs = await client.describeConfigs({
            resources: [{ type: 2, name: 'replicated', configNames: ['min.insync.replicas'] }],
            includeSynonyms: false,
          });
          return configs.resources[0]!.configEntries[0]!.configValue;
        },
        { timeoutMs: 30_000, description: "the topic's min.insync.replicas" },
      );
      expect(minInSync).toBe('2');
    } finally {
      await client.disconnect();
    }

    const mixed = await stack(['up', 'kafka'], { TT_KAFKA_BROKERS: '1' });
    expect(mixed.code).not.toBe(0);
    expect(mixed.output).toContain('kafka runs 3 broker(s), not TT_KAFKA_BROKERS=1');
  }, 300_000);

  it('names its controller, restarts one broker, and starts a killed one again', async () => {
    const controller = await stack(['controller']);
    expect(controller.stdout.trim()).toMatch(/^[123]$/);

    const restarted = await stack(['restart', 'kafka-2']);
    expect(restarted.code).toBe(0);

    const pid = (await stack(['pid', 'kafka-3'])).stdout.trim();
    expect(pid).toMatch(/^\d+$/);
    expect((await stack(['kill', 'kafka-3'])).code).toBe(0);
    expect((await stack(['status'])).stdout).toMatch(/^kafka-3 +down/m);
    expect(gone(Number(pid))).toBe(true);
    const again = await stack(['up', 'kafka']);
    expect(again.output).toContain('starting the brokers that are down');
    expect((await stack(['status'])).stdout).toMatch(/^kafka-3 +up /m);
  }, 300_000);

  it('puts Toxiproxy in front: a client that bootstraps there reaches every broker through it', async () => {
    expect((await stack(['up', 'toxiproxy'])).code).toBe(0);
    const { TT_TOXI_KAFKA_BROKERS, TOXIPROXY_URL } = await stackEnv();
    const proxied = TT_TOXI_KAFKA_BROKERS!.split(',');
    expect(proxied).toHaveLength(3);
    const client = await admin(TT_TOXI_KAFKA_BROKERS!);
    try {
      const { brokers } = await client.describeCluster();
      expect(brokers.map((b) => `${b.host}:${b.port}`).sort()).toEqual([...proxied].sort());
    } finally {
      await client.disconnect();
    }
    const proxies = (await (await fetch(`${TOXIPROXY_URL}/proxies`)).json()) as object;
    expect(Object.keys(proxies).sort()).toEqual(
      ['kafka-1', 'kafka-2', 'kafka-3', 'mongo', 'redis', 'registry'].sort(),
    );
  }, 300_000);

  it('stops every broker on down, leaving no process', async () => {
    const pids = (await stack(['pid', 'kafka'])).stdout.trim().split('\n').map(Number);
    expect(pids).toHaveLength(3);
    expect((await stack(['down'])).code).toBe(0);
    for (const pid of pids) expect(gone(pid)).toBe(true);
    expect((await stack(['status'])).stdout).toMatch(/^kafka-1 +down/m);
  }, 300_000);
});
