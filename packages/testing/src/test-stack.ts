import { createKafka, createRedis, createRegistry, kafkaSecurity } from '@tickertape/clients';
import {
  checkKafkaSecurity,
  kafkaBrokers,
  kafkaSecurityShape,
  loadEnv,
  logLevel,
  stackShape,
} from '@tickertape/config';
import { createLogger, type Logger } from '@tickertape/logger';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Admin, Kafka } from 'kafkajs';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { uniqueName } from './unique-name.js';

const testEnvSchema = z
  .object({
    ...stackShape,
    ...kafkaSecurityShape,
    LOG_LEVEL: logLevel().default('warn'),
    /** The local broker's SASL/PLAIN listener (`stack.sh env`); absent when Kafka is external. */
    TT_KAFKA_SASL_BROKERS: kafkaBrokers().optional(),
    TT_KAFKA_SASL_USERNAME: z.string().optional(),
    TT_KAFKA_SASL_PASSWORD: z.string().optional(),
  })
  .check(checkKafkaSecurity);
type TestEnv = z.output<typeof testEnvSchema>;

/** Where the local broker demands SASL/PLAIN, and the one user it knows. */
export interface SaslListener {
  brokers: string[];
  username: string;
  password: string;
}

export interface TopicSpec {
  partitions?: number;
  config?: Record<string, string>;
}

/**
 * Clients for the real stack plus bookkeeping: every topic, database, subject and Redis prefix a
 * test makes through it gets a unique name and is removed by `close()`, through each system's
 * own API.
 */
export class TestStack {
  readonly env: TestEnv;
  readonly logger: Logger;
  readonly kafka: Kafka;
  readonly registry: SchemaRegistry;
  private adminClient: Admin | undefined;
  private redisClient: Redis | undefined;
  private readonly topics: string[] = [];
  private readonly cleanups: (() => Promise<void>)[] = [];
  private readonly subjects: string[] = [];
  private readonly redisPrefixes: string[] = [];

  private constructor(readonly label: string) {
    const env = loadEnv(testEnvSchema);
    this.env = env;
    this.logger = createLogger({ name: `test:${label}`, level: env.LOG_LEVEL });
    this.kafka = createKafka({
      ...kafkaSecurity(env),
      brokers: env.KAFKA_BROKERS,
      clientId: uniqueName(label),
      logger: this.logger,
    });
    this.registry = createRegistry({ url: env.SCHEMA_REGISTRY_URL });
  }

  static open(label: string): Promise<TestStack> {
    return Promise.resolve(new TestStack(label));
  }

  /**
   * Runs `cleanup` on close, in the order registered: how a database of the test's own
   * (`testDatabase` of `@tickertape/store/testing`, which holds the driver) is dropped.
   */
  onClose(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** The local SASL listener; a clear failure when the stack did not say where it is. */
  saslListener(): SaslListener {
    const { TT_KAFKA_SASL_BROKERS: brokers, TT_KAFKA_SASL_USERNAME: username } = this.env;
    const password = this.env.TT_KAFKA_SASL_PASSWORD;
    if (!brokers || username === undefined || password === undefined) {
      throw new Error(
        'TT_KAFKA_SASL_BROKERS/USERNAME/PASSWORD are unset: run tests through `infra/local/stack.sh exec` with the local Kafka',
      );
    }
    return { brokers, username, password };
  }

  /** The variables that point a service at the SASL listener with the right credentials. */
  saslEnv(): Record<string, string> {
    const { brokers, username, password } = this.saslListener();
    return {
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: username,
      KAFKA_SASL_PASSWORD: password,
    };
  }

  name(kind: string): string {
    return uniqueName(`${this.label}-${kind}`);
  }

  async admin(): Promise<Admin> {
    if (!this.adminClient) {
      this.adminClient = this.kafka.admin();
      await this.adminClient.connect();
    }
    return this.adminClient;
  }

  get redis(): Redis {
    this.redisClient ??= createRedis({ url: this.env.REDIS_URL, logger: this.logger });
    return this.redisClient;
  }

  /** A new Redis connection BullMQ can own (it needs `maxRetriesPerRequest: null`). */
  bullConnection(): Redis {
    return createRedis({
      url: this.env.REDIS_URL,
      logger: this.logger,
      maxRetriesPerRequest: null,
    });
  }

  async createTopic(spec: TopicSpec = {}): Promise<string> {
    const topic = this.name('topic');
    const admin = await this.admin();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions: spec.partitions ?? 1,
          configEntries: Object.entries(spec.config ?? {}).map(([name, value]) => ({
            name,
            value,
          })),
        },
      ],
    });
    this.topics.push(topic);
    return topic;
  }

  /** A unique subject, or `name` (e.g. the `<topic>-value` a worker registers); deleted on close. */
  subject(name?: string): string {
    const subject = name ?? `${this.name('subject')}-value`;
    this.subjects.push(subject);
    return subject;
  }

  /** A unique key prefix (BullMQ `prefix`, raw keys); every key under it is deleted on close. */
  redisPrefix(): string {
    const prefix = this.name('bull');
    this.redisPrefixes.push(prefix);
    return prefix;
  }

  async close(): Promise<void> {
    const admin = this.topics.length > 0 ? await this.admin() : this.adminClient;
    if (admin && this.topics.length > 0) await admin.deleteTopics({ topics: this.topics });
    await admin?.disconnect();
    for (const cleanup of this.cleanups) await cleanup();
    for (const subject of this.subjects) await this.deleteSubject(subject);
    for (const prefix of this.redisPrefixes) await this.deleteRedisPrefix(prefix);
    this.redisClient?.disconnect();
  }

  private async deleteSubject(subject: string): Promise<void> {
    const base = `${this.env.SCHEMA_REGISTRY_URL}/subjects/${encodeURIComponent(subject)}`;
    // Confluent semantics: a soft delete first, then a permanent one.
    for (const url of [base, `${base}?permanent=true`]) {
      const response = await fetch(url, { method: 'DELETE' });
      if (!response.ok && response.status !== 404) {
        throw new Error(`DELETE ${url} answered ${response.status}: ${await response.text()}`);
      }
    }
  }

  private async deleteRedisPrefix(prefix: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
