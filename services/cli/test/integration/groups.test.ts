/**
 * `tickertape groups` on the real stack: members and the partitions they hold, committed and
 * end offsets, lag in records and seconds, hints, other groups on the topic, and the exit codes
 * that make it a probe. The members are plain KafkaJS consumers that join and never commit, so
 * the offsets the test sets stay put.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GroupsReport } from '../../src/commands/groups/run.js';
import { TestStack, waitFor } from '@tickertape/testing';
import type { Consumer } from 'kafkajs';
import { runCli } from '../support/cli.js';

describe('tickertape groups', () => {
  let stack: TestStack;
  let topic: string;
  const consumers: Consumer[] = [];
  const groups = { minute: '', hour: '', retired: '' };
  let sentAt = 0;

  const groupsArgs = (extra: string[]) => [
    'groups',
    '--topic',
    topic,
    '--group',
    `minute=${groups.minute}`,
    '--group',
    `hour=${groups.hour}`,
    ...extra,
  ];
  const report = async (extra: string[]) => {
    const run = await runCli(stack, groupsArgs([...extra, '--format', 'json']));
    return { code: run.code, report: JSON.parse(run.stdout) as GroupsReport, stderr: run.stderr };
  };

  beforeAll(async () => {
    stack = await TestStack.open('cli-groups');
    topic = await stack.createTopic({
      partitions: 4,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    groups.minute = stack.name('minute');
    groups.hour = stack.name('hour');
    groups.retired = stack.name('week');
    const producer = stack.kafka.producer();
    await producer.connect();
    sentAt = Date.now();
    await producer.send({
      topic,
      messages: Array.from({ length: 20 }, (_, i) => ({ partition: i % 4, value: `r${i}` })),
    });
    await producer.disconnect();
    const admin = await stack.admin();
    const everyPartition = (offset: string) =>
      [0, 1, 2, 3].map((partition) => ({ partition, offset }));
    // minute has read 2 of each partition's 5 records; hour all of them, and has no member;
    // a retired level's group still holds offsets on the topic.
    await admin.setOffsets({ groupId: groups.minute, topic, partitions: everyPartition('2') });
    await admin.setOffsets({ groupId: groups.hour, topic, partitions: everyPartition('5') });
    await admin.setOffsets({ groupId: groups.retired, topic, partitions: everyPartition('5') });

    // Five members for four partitions: one of them idle. Joined together: one rebalance.
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        const consumer = stack.kafka.consumer({ groupId: groups.minute, sessionTimeout: 10_000 });
        consumers.push(consumer);
        await consumer.connect();
        await consumer.subscribe({ topic });
        await consumer.run({
          autoCommit: false,
          // Reads nothing for good: the partition is paused, its offsets neither resolved nor
          // committed, so the offsets the test set stay where they are.
          eachBatchAutoResolve: false,
          eachBatch: ({ pause }) => {
            pause();
            return Promise.resolve();
          },
        });
      }),
    );
    const admin2 = await stack.admin();
    await waitFor(
      async () => {
        const [group] = (await admin2.describeGroups([groups.minute])).groups;
        return group?.state === 'Stable' && group.members.length === 5;
      },
      { description: 'five members in a stable minute group', timeoutMs: 60_000 },
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.disconnect()));
    await stack.close();
  });

  it('shows members, partitions held, offsets and lag in records and seconds', async () => {
    const before = Date.now();
    const { code, report: r } = await report(['--stores', 'minute,hour', '--interval', '0']);
    const minute = r.stores.find((s) => s.store === 'minute')!;
    expect(minute.status.groupId).toBe(groups.minute);
    expect(minute.status.state).toBe('Stable');
    expect(minute.status.members).toHaveLength(5);
    const held = minute.status.members.flatMap((m) => m.partitions).sort();
    expect(held).toEqual([0, 1, 2, 3]);
    expect(minute.idleMembers).toHaveLength(1);
    expect(minute.hints.join('\n')).toMatch(/1 idle member\(s\): 5 members for 4 partitions/);
    for (const p of minute.status.partitions) {
      expect({ committed: p.committed, end: p.end, lag: p.lagRecords }).toEqual({
        committed: '2',
        end: '5',
        lag: 3,
      });
      expect(minute.status.members.map((m) => m.memberId)).toContain(p.memberId);
    }
    expect(minute.status.lagRecords).toBe(12);
    // The oldest unread record was appended when the test sent it; resolution 0.1 s.
    expect(minute.status.lagSeconds).toBeGreaterThanOrEqual((before - sentAt) / 1000 - 0.2);
    expect(minute.status.lagSeconds).toBeLessThanOrEqual((Date.now() - sentAt) / 1000 + 0.2);
    expect(minute.problems).toEqual([]);

    const hour = r.stores.find((s) => s.store === 'hour')!;
    expect(hour.status.members).toEqual([]);
    expect(hour.status.lagRecords).toBe(0);
    expect(hour.status.lagSeconds).toBe(0);
    expect(hour.problems).toEqual([`no member: nothing consumes ${topic} for this store`]);
    expect(r.ok).toBe(false);
    expect(code).toBe(1);
    // Not one of the checked stores: listed, so nobody forgets it.
    expect(r.otherGroups).toContain(groups.retired);
  }, 60_000);

  it('exits 0 as a probe while every store has a member and is within --max-lag-seconds, 1 when behind', async () => {
    const ok = await report(['--stores', 'minute', '--interval', '0', '--max-lag-seconds', '3600']);
    expect(ok.code).toBe(0);
    expect(ok.report.ok).toBe(true);
    const behind = await report([
      '--stores',
      'minute',
      '--interval',
      '0',
      '--max-lag-seconds',
      '0',
    ]);
    expect(behind.code).toBe(1);
    expect(behind.report.stores[0]!.problems[0]).toMatch(
      /^behind by [\d.]+ s, more than --max-lag-seconds 0$/,
    );
  }, 60_000);

  it('measures rates over two samples and says when the lag grows', async () => {
    const producer = stack.kafka.producer();
    await producer.connect();
    const sending = (async () => {
      for (let i = 0; i < 10; i++) {
        await producer.send({ topic, messages: [{ partition: i % 4, value: `more${i}` }] });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const { report: r } = await report(['--stores', 'minute', '--interval', '800ms']);
    await sending;
    await producer.disconnect();
    const minute = r.stores[0]!;
    expect(minute.rates!.producedPerSec).toBeGreaterThan(0);
    expect(minute.rates!.committedPerSec).toBe(0);
    expect(minute.lagGrowing).toBe(true);
    expect(minute.hints.join('\n')).toMatch(/lag growing: \d+ records\/s in, 0\/s committed/);
  }, 60_000);

  it('prints a table an operator reads', async () => {
    const run = await runCli(stack, groupsArgs(['--stores', 'minute,hour', '--interval', '0']));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`minute: group ${groups.minute}, Stable, 5 members, lag `);
    expect(run.stdout).toMatch(/member\s+client id\s+host\s+partitions/);
    expect(run.stdout).toMatch(/partition\s+committed\s+end\s+lag\s+lag s\s+member/);
    expect(run.stdout).toContain(`FAIL no member: nothing consumes ${topic} for this store`);
    expect(run.stdout).toContain('hint 1 idle member(s)');
    expect(run.stdout).toContain(groups.retired);
  }, 60_000);

  it('names a topic that does not exist, in one line, at once', async () => {
    const started = Date.now();
    const run = await runCli(stack, ['groups', '--topic', 'no-such-topic-for-groups']);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^tickertape: TOPIC_MISSING: topic no-such-topic-for-groups does not exist on /,
      ),
    ]);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('refuses bad arguments with the option named', async () => {
    const bad = await runCli(stack, ['groups', '--max-lag-seconds', 'soon']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--max-lag-seconds.*must be zero or a positive number/);
    const store = await runCli(stack, ['groups', '--stores', 'week']);
    expect(store.stderr).toMatch(/"week" is not one of minute, hour, day, segments/);
  });
});
