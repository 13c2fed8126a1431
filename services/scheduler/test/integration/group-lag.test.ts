import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@tickertape/logger';
import { TestStack, waitFor } from '@tickertape/testing';
import { parseSchedulerEnv } from '../../src/env.js';
import { startScheduler, type SchedulerHandle } from '../../src/scheduler.js';
import { testDatabase } from '@tickertape/store/testing';

/** One sample of a series from the Prometheus text of /metrics; undefined when absent. */
function sampleOf(text: string, name: string, level: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{level="${level}"}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe("the scheduler's consumer group lag series", () => {
  let stack: TestStack;
  let scheduler: SchedulerHandle | undefined;

  beforeAll(async () => {
    stack = await TestStack.open('group-lag');
  });
  afterAll(async () => {
    await scheduler?.stop();
    await stack.close();
  });

  it('reports lag in records and seconds per level, and no lag for a group never deployed', async () => {
    const topic = await stack.createTopic({
      partitions: 2,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    const producer = stack.kafka.producer();
    await producer.connect();
    const send = (partition: number, count: number) =>
      producer.send({
        topic,
        messages: Array.from({ length: count }, (_, i) => ({ partition, value: `r${i}` })),
      });
    await send(0, 10);
    await send(1, 5);
    const oldestUnread = Date.now();
    // Partition 0 is read up to offset 5, so its oldest unread record is from the first send;
    // the newer records follow two seconds later and must not make the lag look younger.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await send(0, 3);
    await producer.disconnect();
    const minuteGroup = stack.name('minute');
    const admin = await stack.admin();
    await admin.setOffsets({
      groupId: minuteGroup,
      topic,
      partitions: [
        { partition: 0, offset: '5' },
        { partition: 1, offset: '5' },
      ],
    });

    const db = testDatabase(stack);
    scheduler = await startScheduler(
      parseSchedulerEnv({
        KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
        TOPIC: topic,
        MONGODB_URI: stack.env.MONGODB_URI,
        REDIS_URL: stack.env.REDIS_URL,
        MONGODB_DATABASE: db.databaseName,
        BULLMQ_PREFIX: stack.redisPrefix(),
        SCHEDULER_QUEUE: stack.name('queue'),
        FINALITY_GROUPS: `minute=${minuteGroup},hour=${stack.name('hour')},day=${stack.name('day')}`,
        SEGMENT_GROUP: stack.name('segments'),
        GROUP_LAG_EVERY_MS: '500',
        HTTP_PORT: '0',
        LOG_LEVEL: 'warn',
      }),
      createLogger({ name: 'test-scheduler', level: 'warn' }),
    );
    const metrics = () =>
      fetch(`http://127.0.0.1:${scheduler!.port}/metrics`).then((r) => r.text());

    const text = await waitFor(
      async () => {
        const body = await metrics();
        return sampleOf(body, 'tickertape_group_lag_records', 'minute') === undefined
          ? undefined
          : body;
      },
      { description: 'a lag sample of the minute group', timeoutMs: 20_000 },
    );
    const sampledBy = Date.now();
    // 5 + 3 unread records in partition 0, none in partition 1.
    expect(sampleOf(text, 'tickertape_group_lag_records', 'minute')).toBe(8);
    const seconds = sampleOf(text, 'tickertape_group_lag_seconds', 'minute')!;
    expect(seconds).toBeGreaterThanOrEqual(2);
    expect(seconds).toBeLessThanOrEqual((sampledBy - oldestUnread) / 1000 + 1);
    expect(sampleOf(text, 'tickertape_group_members', 'minute')).toBe(0);
    // Never committed, no member: not deployed, so no lag to alert on.
    for (const level of ['hour', 'day', 'segments']) {
      expect(sampleOf(text, 'tickertape_group_lag_records', level)).toBeUndefined();
      expect(sampleOf(text, 'tickertape_group_lag_seconds', level)).toBeUndefined();
      expect(sampleOf(text, 'tickertape_group_members', level)).toBe(0);
    }

    // Caught up: the lag goes to 0 records and 0 seconds.
    await admin.setOffsets({
      groupId: minuteGroup,
      topic,
      partitions: [{ partition: 0, offset: '13' }],
    });
    await waitFor(
      async () => sampleOf(await metrics(), 'tickertape_group_lag_records', 'minute') === 0,
      { description: 'the lag to reach 0', timeoutMs: 20_000 },
    );
    expect(sampleOf(await metrics(), 'tickertape_group_lag_seconds', 'minute')).toBe(0);
  }, 60_000);

  it('measures nothing and counts no failure while the tick topic does not exist yet', async () => {
    await scheduler?.stop();
    const db = testDatabase(stack);
    scheduler = await startScheduler(
      parseSchedulerEnv({
        KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
        TOPIC: stack.name('not-created'),
        MONGODB_URI: stack.env.MONGODB_URI,
        REDIS_URL: stack.env.REDIS_URL,
        MONGODB_DATABASE: db.databaseName,
        BULLMQ_PREFIX: stack.redisPrefix(),
        SCHEDULER_QUEUE: stack.name('queue'),
        GROUP_LAG_EVERY_MS: '300',
        HTTP_PORT: '0',
        LOG_LEVEL: 'warn',
      }),
      createLogger({ name: 'test-scheduler', level: 'warn' }),
    );
    // Several sampling periods.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const text = await fetch(`http://127.0.0.1:${scheduler.port}/metrics`).then((r) => r.text());
    expect(sampleOf(text, 'tickertape_group_lag_records', 'minute')).toBeUndefined();
    expect(text).toContain('tickertape_group_lag_failures_total 0');
  }, 60_000);
});
