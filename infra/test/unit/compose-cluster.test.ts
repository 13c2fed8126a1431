/**
 * docker-compose's three-broker variant (infra/compose/kafka-cluster.yml) cannot run here (no
 * Docker engine). What can be checked is the merged file as `docker compose -f … -f …` would see
 * it: three brokers with distinct ids and addresses voting in one quorum of one cluster, topics
 * replicated three times with two in sync, and every tickertape process bootstrapping from all
 * three. Compose merges maps key by key and replaces scalars, which is what `merge` does here.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
type Env = Record<string, string | number>;
interface Service {
  image?: string;
  environment?: Env;
}
const read = (path: string) =>
  parse(readFileSync(`${root}/${path}`, 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };

const base = read('docker-compose.yml');
const cluster = read('infra/compose/kafka-cluster.yml');
const merged: Record<string, Service> = { ...base.services };
for (const [name, over] of Object.entries(cluster.services)) {
  const under = merged[name] ?? {};
  merged[name] = {
    ...under,
    ...over,
    environment: { ...under.environment, ...over.environment },
  };
}
const brokers = ['kafka', 'kafka-2', 'kafka-3'];

describe('docker-compose with infra/compose/kafka-cluster.yml', () => {
  it('runs three brokers of one cluster, each its own node and address, in one quorum', () => {
    const envs = brokers.map((name) => merged[name]!.environment!);
    expect(envs.map((env) => env.KAFKA_NODE_ID)).toEqual([1, 2, 3]);
    expect(new Set(envs.map((env) => env.CLUSTER_ID)).size).toBe(1);
    for (const [i, env] of envs.entries()) {
      expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe('1@kafka:9093,2@kafka-2:9093,3@kafka-3:9093');
      expect(String(env.KAFKA_ADVERTISED_LISTENERS)).toContain(`INTERNAL://${brokers[i]}:29092`);
      expect(env).toMatchObject({
        KAFKA_DEFAULT_REPLICATION_FACTOR: 3,
        KAFKA_MIN_INSYNC_REPLICAS: 2,
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 3,
      });
      expect(merged[brokers[i]!]!.image).toBe(merged.kafka!.image);
    }
  });

  it('has every tickertape process that reads KAFKA_BROKERS bootstrap from all three', () => {
    const readers = Object.entries(base.services).filter(
      ([, service]) => service.environment?.KAFKA_BROKERS !== undefined,
    );
    expect(readers.length).toBeGreaterThanOrEqual(7);
    for (const [name] of readers)
      expect({ name, brokers: merged[name]!.environment!.KAFKA_BROKERS }).toEqual({
        name,
        brokers: 'kafka:29092,kafka-2:29092,kafka-3:29092',
      });
  });
});
