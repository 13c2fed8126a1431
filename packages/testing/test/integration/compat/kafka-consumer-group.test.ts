/**
 * Compatibility: Kafka consumer groups as the rollup workers will use them, with kafkajs against
 * the real broker. Partitions are shared between members of one group, every message reaches
 * exactly one member, and offsets committed after processing are where a restarted member resumes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Partitioners, type Consumer, type Producer } from 'kafkajs';
import { TestStack, waitFor } from '../../../src/index.js';

describe('Kafka consumer groups', () => {
  let stack: TestStack;
  let producer: Producer;
  /** Every consumer a test creates, disconnected in afterAll even when the test failed. */
  const consumers: Consumer[] = [];

  function consumer(groupId: string): Consumer {
    // Short heartbeats and fetch waits let a member notice a rebalance, and stop, quickly.
    const created = stack.kafka.consumer({
      groupId,
      heartbeatInterval: 500,
      sessionTimeout: 10_000,
      maxWaitTimeInMs: 500,
    });
    consumers.push(created);
    return created;
  }

  beforeAll(async () => {
    stack = await TestStack.open('compat-kafka');
    producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  });
  afterAll(async () => {
    // Together, not one by one: a member leaving alone makes the others rebalance first.
    await Promise.all(consumers.map((c) => c.disconnect()));
    await producer.disconnect();
    await stack.close();
  }, 60_000);

  it('splits 4 partitions between two members of one group; each message reaches exactly one member', async () => {
    const topic = await stack.createTopic({ partitions: 4 });
    const groupId = stack.name('group');
    const members = [consumer(groupId), consumer(groupId)].map((c) => ({
      consumer: c,
      /** The member's assignment from its latest GROUP_JOIN. */
      assignment: undefined as number[] | undefined,
      received: [] as { key: string; partition: number; offset: string }[],
    }));

    for (const member of members) {
      member.consumer.on(member.consumer.events.GROUP_JOIN, (event) => {
        member.assignment = [...(event.payload.memberAssignment[topic] ?? [])].sort(
          (x, y) => x - y,
        );
      });
      await member.consumer.connect();
      await member.consumer.subscribe({ topics: [topic], fromBeginning: true });
      await member.consumer.run({
        eachMessage: ({ partition, message }) => {
          member.received.push({ key: message.key!.toString(), partition, offset: message.offset });
          return Promise.resolve();
        },
      });
    }

    // Stable group: both have joined since the second member arrived, and their assignments
    // split the topic between them. (The first member held all 4 until the rebalance.)
    await waitFor(
      () => {
        const [a, b] = members.map((m) => m.assignment);
        if (!a || !b || a.length === 0 || b.length === 0) return false;
        return [...a, ...b].sort((x, y) => x - y).join() === '0,1,2,3';
      },
      { description: 'both members to hold a share of the 4 partitions', timeoutMs: 45_000 },
    );

    const keys = Array.from({ length: 40 }, (_, i) => `segment-${i}`);
    const metadata = await producer.send({
      topic,
      messages: keys.map((key) => ({ key, value: key })),
    });
    // Keys hash onto partitions: with these 40 keys, every partition got some.
    const partitionsWritten = new Set(metadata.map((m) => m.partition));
    expect([...partitionsWritten].sort((x, y) => x - y)).toEqual([0, 1, 2, 3]);

    await waitFor(() => members[0]!.received.length + members[1]!.received.length >= keys.length, {
      description: 'all 40 messages across the two members',
      timeoutMs: 30_000,
    });

    const all = members.flatMap((m) => m.received);
    expect(all.map((r) => r.key).sort()).toEqual([...keys].sort()); // every key exactly once
    const [a, b] = members.map((m) => m.assignment!);
    expect(a!.filter((p) => b!.includes(p))).toEqual([]); // disjoint
    for (const member of members) {
      expect(member.received.length).toBeGreaterThan(0);
      // A member only sees its own partitions, and a key always lands on the same partition.
      const seen = new Set(member.received.map((r) => r.partition));
      for (const p of seen) expect(member.assignment).toContain(p);
    }
    await Promise.all(members.map((m) => m.consumer.disconnect()));
  }, 90_000);

  it('resumes after the offset committed post-processing and redelivers the uncommitted tail', async () => {
    const topic = await stack.createTopic({ partitions: 1 });
    const groupId = stack.name('group');
    await producer.send({
      topic,
      messages: Array.from({ length: 10 }, (_, i) => ({ key: 'k', value: String(i) })),
    });

    // First run: process all 10, but commit only after message 5 (next offset to read: 6).
    const first = consumer(groupId);
    const processed: string[] = [];
    await first.connect();
    await first.subscribe({ topics: [topic], fromBeginning: true });
    await first.run({
      autoCommit: false,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat }) => {
        for (const message of batch.messages) {
          processed.push(message.value!.toString());
          resolveOffset(message.offset);
          if (message.value!.toString() === '5') {
            await commitOffsetsIfNecessary({
              topics: [
                {
                  topic,
                  partitions: [
                    {
                      partition: batch.partition,
                      offset: (BigInt(message.offset) + 1n).toString(),
                    },
                  ],
                },
              ],
            });
          }
        }
        await heartbeat();
        // No commit for 6..9: with autoCommit off, nothing commits the resolved offsets.
        await commitOffsetsIfNecessary();
      },
    });
    await waitFor(() => processed.length >= 10, {
      description: 'first run to process 10',
      timeoutMs: 30_000,
    });
    await first.disconnect();
    expect(processed).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);

    const admin = await stack.admin();
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    expect(committed?.partitions).toEqual([{ partition: 0, offset: '6', metadata: null }]);

    // Second run, same group: starts at the committed offset (fromBeginning only applies to a
    // group without one), so 6..9 come again and 0..5 never do.
    const second = consumer(groupId);
    const resumed: { value: string; offset: string }[] = [];
    await second.connect();
    await second.subscribe({ topics: [topic], fromBeginning: true });
    await second.run({
      eachMessage: ({ message }) => {
        resumed.push({ value: message.value!.toString(), offset: message.offset });
        return Promise.resolve();
      },
    });
    await waitFor(() => resumed.length >= 4, {
      description: 'the uncommitted tail again',
      timeoutMs: 45_000,
    });
    // A new message after the restart follows the tail; nothing from before the commit arrives.
    await producer.send({ topic, messages: [{ key: 'k', value: '10' }] });
    await waitFor(() => resumed.some((r) => r.value === '10'), {
      description: 'the new message',
      timeoutMs: 30_000,
    });
    expect(resumed).toEqual([
      { value: '6', offset: '6' },
      { value: '7', offset: '7' },
      { value: '8', offset: '8' },
      { value: '9', offset: '9' },
      { value: '10', offset: '10' },
    ]);
    await second.disconnect();
  }, 120_000);
});
