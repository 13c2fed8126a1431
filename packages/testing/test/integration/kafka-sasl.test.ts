import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createKafka, probeDependencies } from '@tickertape/clients';
import { DependencyAuthError, DependencyUnreachableError, isRetriable } from '@tickertape/errors';
import { Partitioners } from 'kafkajs';
import { TestStack, waitFor, type SaslListener } from '../../src/index.js';

const WRONG = 'not-the-local-password';

// The local broker's SASL_PLAINTEXT listener (infra/local/kafka/server.properties.template).
describe('kafka over SASL/PLAIN', () => {
  let stack: TestStack;
  let sasl: SaslListener;
  const saslKafka = (password: string) =>
    createKafka({
      brokers: sasl.brokers,
      clientId: stack.name('sasl'),
      logger: stack.logger,
      sasl: { mechanism: 'plain', username: sasl.username, password },
      retry: { retries: 2, initialRetryTime: 100 },
    });

  beforeAll(async () => {
    stack = await TestStack.open('sasl');
    sasl = stack.saslListener();
  });
  afterAll(() => stack.close());

  it('produces and consumes with the right credentials', async () => {
    const topic = await stack.createTopic();
    const kafka = saslKafka(sasl.password);
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    const consumer = kafka.consumer({ groupId: stack.name('group') });
    const seen: string[] = [];
    try {
      await producer.connect();
      await producer.send({ topic, messages: [{ value: 'one' }, { value: 'two' }] });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: ({ message }) => {
          seen.push(message.value?.toString() ?? '');
          return Promise.resolve();
        },
      });
      await waitFor(() => seen.length >= 2, { description: 'both messages back over SASL' });
      expect(seen).toEqual(['one', 'two']);
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
    }
  }, 60_000);

  it('refuses a wrong password with kafkajs’ non-retriable SASL error', async () => {
    const producer = saslKafka(WRONG).producer({
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    const err: unknown = await producer.connect().catch((e: unknown) => e);
    await producer.disconnect();
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('KafkaJSSASLAuthenticationError');
    expect((err as Error).message).toMatch(/SASL PLAIN authentication failed/);
    expect(isRetriable(err)).toBe(false);
  }, 30_000);

  it('probes with the same settings: passes with them, a wrong password is a non-retriable DependencyAuthError', async () => {
    const probe = (password: string) =>
      probeDependencies(
        {
          KAFKA_BROKERS: sasl.brokers,
          kafkaSecurity: { sasl: { mechanism: 'plain', username: sasl.username, password } },
        },
        stack.logger,
        5000,
      );
    await expect(probe(sasl.password)).resolves.toBeUndefined();
    const started = Date.now();
    const err: unknown = await probe(WRONG).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyAuthError);
    expect(isRetriable(err)).toBe(false);
    const message = (err as Error).message;
    expect(message).toContain(`KAFKA_BROKERS=${sasl.brokers.join(',')} refused the credentials`);
    expect(message).toContain('KAFKA_SASL_PASSWORD');
    expect(message).not.toContain(WRONG);
    // Refused at once, not after the client's retry schedule.
    expect(Date.now() - started).toBeLessThan(4000);
  }, 30_000);

  it('fails the probe, naming KAFKA_BROKERS, when a client without SASL settings tries the port', async () => {
    const err: unknown = await probeDependencies(
      { KAFKA_BROKERS: sasl.brokers },
      stack.logger,
      3000,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyUnreachableError);
    expect((err as DependencyUnreachableError).variable).toBe('KAFKA_BROKERS');
  }, 30_000);
});
