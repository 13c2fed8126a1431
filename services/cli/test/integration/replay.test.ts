import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, waitFor } from '@tickertape/testing';
import { Partitioners } from 'kafkajs';
import { runCli } from '../support/cli.js';

describe('tickertape replay', () => {
  let stack: TestStack;
  let topic: string;
  /** Between the first six records and the last four. */
  let between: number;

  beforeAll(async () => {
    stack = await TestStack.open('cli-replay');
    topic = await stack.createTopic({
      partitions: 2,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const send = (from: number, to: number) =>
      producer.send({
        topic,
        messages: Array.from({ length: to - from }, (_, i) => ({
          partition: (from + i) % 2,
          value: `r${from + i}`,
        })),
      });
    await send(0, 6);
    await new Promise((resolve) => setTimeout(resolve, 50));
    between = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await send(6, 10);
    await producer.disconnect();
  });
  afterAll(() => stack.close());

  it('moves a stopped group back to the first offset of every partition', async () => {
    const groupId = stack.name('replayed');
    const admin = await stack.admin();
    await admin.setOffsets({
      groupId,
      topic,
      partitions: [
        { partition: 0, offset: '5' },
        { partition: 1, offset: '5' },
      ],
    });
    const run = await runCli(stack, [
      'replay',
      '--store',
      'hour',
      '--group',
      groupId,
      '--topic',
      topic,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `${groupId} rewound to the first record of ${topic}; start its workers to read from there`,
    );
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    expect(committed?.partitions.map((p) => p.offset).sort()).toEqual(['0', '0']);
  }, 60_000);

  it.each([
    ['latest', () => 'latest', ['5', '5'], 'moved to the end'],
    [
      'a time',
      () => new Date(between).toISOString(),
      ['3', '3'],
      'moved to the first record appended at or after',
    ],
  ])(
    'starts a new group at %s: a level enabled later reads from there',
    async (_name, from, offsets, said) => {
      const groupId = stack.name('enabled-later');
      const run = await runCli(stack, [
        'replay',
        '--store',
        'day',
        '--group',
        groupId,
        '--topic',
        topic,
        '--from',
        from(),
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(said);
      const [committed] = await (await stack.admin()).fetchOffsets({ groupId, topics: [topic] });
      expect(committed?.partitions.map((p) => p.offset).sort()).toEqual(offsets);
    },
    60_000,
  );

  it('refuses a start that is not earliest, latest or a time', async () => {
    const run = await runCli(stack, ['replay', '--store', 'day', '--from', 'yesterday-ish']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('must be earliest, latest, or a time');
  });

  it('refuses while a worker of the group is running, naming the group', async () => {
    const groupId = stack.name('running');
    const consumer = stack.kafka.consumer({ groupId });
    let joined = false;
    consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: () => Promise.resolve() });
    try {
      await waitFor(() => joined, { description: 'the consumer to join', timeoutMs: 30_000 });
      const replay = ['replay', '--store', 'minute', '--group', groupId, '--topic', topic];
      const run = await runCli(stack, replay);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${groupId} has 1 member: stop every worker of it first`);
      // What an operator meets right after a crash: the dead member is still listed.
      expect(run.stderr).toContain('stays a member until its session times out');
      expect(run.stderr).toContain('--wait 45s');

      // With --wait, the replay goes ahead once the member leaves (here: stops, 2 s in).
      const waiting = runCli(stack, [...replay, '--wait', '30s']);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await consumer.disconnect();
      const waited = await waiting;
      expect(waited.stderr).toBe('');
      expect(waited.code).toBe(0);
      expect(waited.stdout).toContain(`${groupId} rewound to the first record of ${topic}`);
    } finally {
      await consumer.disconnect();
    }
  }, 90_000);

  it('takes one store', async () => {
    const run = await runCli(stack, ['replay', '--store', 'minute,hour']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('one store');
  });
});
