import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { createKafka } from '@tickertape/clients';
import { TestStack, freePort } from '@tickertape/testing';
import { Partitioners } from 'kafkajs';
import { kafkaLagSource } from '../../src/lag.js';
import type { LevelsBody, StatusBody } from '../../src/response-schemas.js';
import { qs, startTestApi } from '../support/api.js';
import { testDatabase } from '@tickertape/store/testing';

describe('consumer lag per level, from the real Kafka', () => {
  let stack: TestStack;
  const groups: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.open('api-lag');
  });
  afterAll(async () => {
    if (groups.length > 0) await (await stack.admin()).deleteGroups(groups);
    await stack?.close();
  });

  it('reports what each level’s group has not committed, on /levels and /status', async () => {
    // 12 records on partition 0 and 8 on 1; minute committed 12 + 5, day all, hour nothing.
    const topic = await stack.createTopic({ partitions: 2 });
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    for (const [partition, count] of [
      [0, 12],
      [1, 8],
    ] as const)
      await producer.send({
        topic,
        messages: Array.from({ length: count }, (_, i) => ({ partition, value: `r${i}` })),
      });
    await producer.disconnect();
    const prefix = `${stack.name('group')}-`;
    const admin = await stack.admin();
    for (const [level, offsets] of [
      ['minute', ['12', '5']],
      ['day', ['12', '8']],
    ] as const) {
      groups.push(`${prefix}${level}`);
      await admin.setOffsets({
        groupId: `${prefix}${level}`,
        topic,
        partitions: offsets.map((offset, partition) => ({ partition, offset })),
      });
    }

    const db = testDatabase(stack);
    const lag = kafkaLagSource({
      admin: stack.kafka.admin(),
      topic,
      groupPrefix: prefix,
      logger: stack.logger,
    });
    const api = await startTestApi(await storesOf(db), { lag: lag.lag });
    try {
      const expected = { minute: 3, hour: 20, day: 0 };
      const levels = await api.get<LevelsBody>('/api/v1/levels');
      expect(levels.body.levels.map((l) => [l.level, l.lag])).toEqual(
        LEVELS.map((level) => [level, expected[level]]),
      );
      const status = await api.get<StatusBody>(
        `/api/v1/status${qs(['series', 'speed|sensor=s1'])}`,
      );
      expect(status.status).toBe(200);
      expect(status.body.levels.map((l) => l.lag)).toEqual([3, 20, 0]);
    } finally {
      await api.close();
      await lag.close();
    }
  }, 60_000);

  it('reports lag as null when Kafka is unreachable, and still answers reads at once', async () => {
    const kafka = createKafka({
      brokers: [`127.0.0.1:${await freePort()}`],
      clientId: stack.name('dead'),
      logger: stack.logger.child({}, { level: 'silent' }),
      connectionTimeoutMs: 300,
      retry: { retries: 0 },
    });
    const lag = kafkaLagSource({
      admin: kafka.admin(),
      topic: 'raw-ticks',
      groupPrefix: 'tickertape-rollup-',
      logger: stack.logger.child({}, { level: 'silent' }),
      timeoutMs: 1000,
    });
    const api = await startTestApi(await storesOf(testDatabase(stack)), { lag: lag.lag });
    try {
      let started = Date.now();
      const first = await api.get<LevelsBody>('/api/v1/levels');
      expect(first.status).toBe(200);
      expect(first.body.levels.map((l) => l.lag)).toEqual([null, null, null]);
      expect(Date.now() - started).toBeLessThan(3000);
      // The failure is cached: the next requests do not wait on Kafka again.
      started = Date.now();
      const again = await api.get<StatusBody>(`/api/v1/status${qs(['series', 'speed'])}`);
      expect(again.status).toBe(200);
      expect(again.body.levels.map((l) => l.lag)).toEqual([null, null, null]);
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      await api.close();
      await lag.close();
    }
  }, 30_000);
});
