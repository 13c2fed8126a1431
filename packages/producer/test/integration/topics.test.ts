/** ensureTopics on the real broker: creates what is missing, never repartitions. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import {
  ensureTopics,
  TopicLayoutError,
  TopicMissingError,
  topicPartitions,
} from '../../src/index.js';

describe('ensureTopics', () => {
  let stack: TestStack;
  const made: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.open('topics');
  });
  afterAll(async () => {
    // Created by the code under test, not by TestStack: removed here.
    if (made.length > 0) await (await stack.admin()).deleteTopics({ topics: made });
    await stack.close();
  });

  it('creates the raw and DLQ topics once, then reports them without changing them', async () => {
    const admin = await stack.admin();
    const topic = stack.name('raw');
    const dlqTopic = stack.name('dlq');
    made.push(topic, dlqTopic);

    const first = await ensureTopics(admin, { topic, partitions: 3, dlqTopic });
    expect(first.created).toEqual([topic, dlqTopic]);
    expect(first.topics).toEqual([
      { topic, partitions: 3, wanted: 3, created: true },
      { topic: dlqTopic, partitions: 1, wanted: 1, created: true },
    ]);
    expect(first.mismatched).toEqual([]);

    const again = await ensureTopics(admin, { topic, partitions: 3, dlqTopic });
    expect(again.created).toEqual([]);
    expect(again.topics.map((t) => t.partitions)).toEqual([3, 1]);

    const wider = await ensureTopics(admin, { topic, partitions: 6, dlqTopic, dlqPartitions: 2 });
    expect(wider.created).toEqual([]);
    expect(wider.mismatched).toEqual([
      { topic, partitions: 3, wanted: 6, created: false },
      { topic: dlqTopic, partitions: 1, wanted: 2, created: false },
    ]);
    expect(await topicPartitions(admin, topic)).toBe(3);
  }, 60_000);

  it('creates only what is missing next to an existing topic', async () => {
    const admin = await stack.admin();
    const topic = await stack.createTopic({ partitions: 2 });
    const dlqTopic = stack.name('dlq');
    made.push(dlqTopic);
    const result = await ensureTopics(admin, { topic, partitions: 2, dlqTopic });
    expect(result.created).toEqual([dlqTopic]);
    expect(result.mismatched).toEqual([]);
  }, 60_000);

  it('names a missing topic', async () => {
    const admin = await stack.admin();
    await expect(topicPartitions(admin, stack.name('nope'))).rejects.toBeInstanceOf(
      TopicMissingError,
    );
  });

  it.each([
    [{ topic: 'a', partitions: 0, dlqTopic: 'b' }, /partitions/],
    [{ topic: 'a', partitions: 1, dlqTopic: 'b', dlqPartitions: 1.5 }, /dlqPartitions/],
    [{ topic: 'a', partitions: 1, dlqTopic: 'a' }, /differ/],
  ])('refuses the layout %j before touching the broker', async (layout, message) => {
    const admin = await stack.admin();
    const refused = ensureTopics(admin, layout);
    await expect(refused).rejects.toBeInstanceOf(TopicLayoutError);
    await expect(refused).rejects.toThrow(message);
  });
});
