/**
 * `tickertape tail`, `publish --dry-run` and the CreateTime warning on the real stack: records
 * published by the CLI and dead-lettered by a real worker (a process), read back decoded with
 * their reasons; a dry run that finds bad lines and publishes nothing; the warning on a topic
 * that keeps the producers' timestamps, and not on one that keeps the broker's.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DLQ_HEADERS } from '@tickertape/tick';
import { TestStack, waitFor } from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { valueSubject } from '@tickertape/tick';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, tickertape } from '../support/cli.js';
import { Pipeline } from '../support/pipeline.js';

const LOG_APPEND_TIME = { 'message.timestamp.type': 'LogAppendTime' };
const NOW = Date.now();
const DAY_MS = 86_400_000;

interface TailLine {
  topic: string;
  partition: number;
  offset: string;
  timestamp: string;
  key: string | null;
  value?: {
    metric: string;
    tags: Record<string, string>;
    ts: number;
    fields: Record<string, number>;
  };
  undecodable?: string;
  deadLetter?: { reason: string; detail?: string; sourceTopic?: string; sourceOffset?: string };
}

function tick(sensor: string, ts: number, speed: number): string {
  return JSON.stringify({ metric: 'traffic', tags: { sensor }, ts, fields: { speed } });
}

function ndjson(stdout: string): TailLine[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TailLine);
}

describe('tickertape tail, publish --dry-run and the timestamp-type warning', () => {
  let stack: TestStack;
  let dir: string;
  let topic: string;
  let dlqTopic: string;
  let pipeline: Pipeline;

  async function records(name: string): Promise<number> {
    const offsets = await (await stack.admin()).fetchTopicOffsets(name);
    return offsets.reduce((sum, p) => sum + Number(p.high), 0);
  }

  beforeAll(async () => {
    stack = await TestStack.open('cli-tail');
    dir = await mkdtemp(join(tmpdir(), 'tickertape-tail-'));
    topic = await stack.createTopic({ partitions: 2, config: LOG_APPEND_TIME });
    dlqTopic = await stack.createTopic();
    stack.subject(valueSubject(topic));
    // Three fresh ticks and one from two days ago: published (the producer cannot judge
    // lateness), then dead-lettered TOO_LATE by the worker, which can.
    const published = await runCli(
      stack,
      ['publish', '--topic', topic, '-'],
      [
        tick('a', NOW - 3000, 50),
        tick('b', NOW - 2000, 51),
        tick('a', NOW - 1000, 52),
        tick('late', NOW - 2 * DAY_MS, 9),
      ].join('\n'),
    );
    expect(published).toMatchObject({ code: 0, stderr: '' });
    pipeline = new Pipeline(stack, { topic, dlqTopic, database: testDatabase(stack).databaseName });
    await pipeline.start(['minute']);
    await waitFor(async () => (await records(dlqTopic)) === 1, {
      description: 'the late tick dead-lettered',
      timeoutMs: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await pipeline.stop();
    await rm(dir, { recursive: true, force: true });
    await stack.close();
  });

  it('shows the published records decoded, as a table and as NDJSON', async () => {
    const json = await runCli(stack, [
      'tail',
      '--topic',
      topic,
      '--from-beginning',
      '--format',
      'json',
    ]);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const lines = ndjson(json.stdout);
    expect(lines).toHaveLength(4);
    expect(lines.map((line) => line.value?.fields.speed).sort()).toEqual([50, 51, 52, 9].sort());
    const late = lines.find((line) => line.value?.tags.sensor === 'late')!;
    expect(late).toMatchObject({
      topic,
      key: 'traffic|sensor=late',
      value: { metric: 'traffic', ts: NOW - 2 * DAY_MS },
    });
    expect(late.deadLetter).toBeUndefined();

    const table = await runCli(stack, ['tail', '--topic', topic, '--from-beginning']);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^partition\s+offset\s+time\s+key\s+value$/);
    expect(rows).toHaveLength(4);
    expect(rows.join('\n')).toContain('"fields":{"speed":52}');
  }, 60_000);

  it('shows a dead letter with the reason and detail the worker wrote', async () => {
    const table = await runCli(stack, ['tail', '--dlq', '--dlq-topic', dlqTopic]);
    expect(table.code).toBe(0);
    const [header, row, ...more] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/\bvalue\s+reason$/);
    expect(more).toEqual([]);
    expect(row).toContain('traffic|sensor=late');
    expect(row).toMatch(/TOO_LATE: event time \S+ is too late for its record's time/);

    const json = ndjson(
      (await runCli(stack, ['tail', '--dlq', '--dlq-topic', dlqTopic, '--format', 'json'])).stdout,
    );
    expect(json).toEqual([
      expect.objectContaining({
        topic: dlqTopic,
        value: expect.objectContaining({ tags: { sensor: 'late' } }),
        deadLetter: expect.objectContaining({ reason: 'TOO_LATE', sourceTopic: topic }),
      }),
    ]);
    // The reason is the header the worker writes, read back as is.
    expect(DLQ_HEADERS.reason).toBe('tickertape-dlq-reason');
  }, 60_000);

  it('starts at the latest records, an offset of one partition, or a time', async () => {
    const all = ndjson(
      (await runCli(stack, ['tail', '--topic', topic, '--from-beginning', '--format', 'json']))
        .stdout,
    );
    const latest = ndjson(
      (await runCli(stack, ['tail', '--topic', topic, '--limit', '1', '--format', 'json'])).stdout,
    );
    expect(latest).toEqual([all[all.length - 1]]);

    const first = all[0]!;
    const partition = all.filter((line) => line.partition === first.partition);
    const fromOffset = ndjson(
      (
        await runCli(stack, [
          'tail',
          '--topic',
          topic,
          '--partition',
          String(first.partition),
          '--offset',
          '1',
          '--format',
          'json',
        ])
      ).stdout,
    );
    expect(fromOffset.map((line) => line.offset)).toEqual(
      partition.filter((line) => line.offset !== '0').map((line) => line.offset),
    );

    const sinceHourAgo = await runCli(stack, [
      'tail',
      '--topic',
      topic,
      '--since',
      '-1h',
      '--format',
      'json',
    ]);
    expect(ndjson(sinceHourAgo.stdout)).toHaveLength(4);
    const sinceLater = await runCli(stack, ['tail', '--topic', topic, '--since', 'now+1h']);
    expect(sinceLater.code).toBe(0);
    expect(sinceLater.stderr).toContain(`no records of ${topic}`);

    const missing = await runCli(stack, ['tail', '--topic', topic, '--partition', '7']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${topic} has no partition 7: its partitions are 0 to 1`);
    const both = await runCli(stack, [
      'tail',
      '--topic',
      topic,
      '--offset',
      '1',
      '--from-beginning',
    ]);
    expect(both.code).toBe(2);
  }, 90_000);

  it('follows: prints records as they are appended, until --limit', async () => {
    const following = runCli(stack, [
      'tail',
      '--topic',
      topic,
      '--from-beginning',
      '--follow',
      '--limit',
      '5',
      '--format',
      'json',
    ]);
    const published = await runCli(
      stack,
      ['publish', '--topic', topic, '-'],
      tick('c', Date.now(), 70),
    );
    expect(published.code).toBe(0);
    const run = await following;
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = ndjson(run.stdout);
    expect(lines).toHaveLength(5);
    expect(lines.map((line) => line.value?.tags.sensor).sort()).toEqual([
      'a',
      'a',
      'b',
      'c',
      'late',
    ]);
  }, 60_000);

  it('commits nothing: its throwaway groups hold no offsets on the topic', async () => {
    await runCli(stack, ['tail', '--topic', topic, '--from-beginning']);
    const admin = await stack.admin();
    const { groups } = await admin.listGroups();
    for (const { groupId } of groups.filter((g) => g.groupId.startsWith('tickertape-tail'))) {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      expect(offsets!.partitions.every((p) => p.offset === '-1')).toBe(true);
    }
  }, 60_000);

  it('dry-runs a file: names each bad line with its reason, exits 2, publishes nothing', async () => {
    const file = join(dir, 'ticks.jsonl');
    await writeFile(
      file,
      [
        tick('a', NOW, 1),
        'not json',
        JSON.stringify({ metric: 'traffic', tags: {}, ts: NOW, fields: {} }),
        tick('a', NOW - 7 * DAY_MS, 2),
        JSON.stringify({ metric: 'traffic', tags: { 'a.b': 'x' }, ts: NOW, fields: { speed: 1 } }),
        tick('b', NOW, 3),
      ].join('\n'),
    );
    const before = await records(topic);
    const run = await runCli(stack, ['publish', '--dry-run', '--topic', topic, file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(`dry run: 2 good ticks, 4 bad lines; nothing published to ${topic}\n`);
    const bad = run.stderr.trimEnd().split('\n');
    expect(bad).toEqual([
      expect.stringMatching(/^line 2: not JSON/),
      'line 3: NO_FIELDS: no numeric field',
      expect.stringMatching(/^line 4: TOO_LATE: event time .* is too late/),
      'line 5: INVALID_NAME: tags name "a.b" contains "."',
    ]);
    expect(await records(topic)).toBe(before);

    const good = join(dir, 'good.csv');
    await writeFile(good, `metric,ts,tag:sensor,field:speed\ntraffic,${NOW},a,1\n`);
    const clean = await runCli(stack, ['publish', '--dry-run', '--topic', topic, good]);
    expect(clean).toMatchObject({ code: 0, stderr: '' });
    expect(clean.stdout).toContain('1 good tick, 0 bad lines');

    const header = join(dir, 'header.csv');
    await writeFile(header, `metric,when,field:speed\ntraffic,${NOW},1\n`);
    const unreadable = await runCli(stack, ['publish', '--dry-run', '--topic', topic, header]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('the CSV header has an unknown column "when"');
    expect(await records(topic)).toBe(before);
  }, 60_000);

  it('warns of a CreateTime topic, with the fix, and not of a LogAppendTime one', async () => {
    const createTime = await stack.createTopic();
    const dlq = await stack.createTopic();
    stack.subject(valueSubject(createTime));
    const file = join(dir, 'one.jsonl');
    await writeFile(file, `${tick('a', NOW, 1)}\n`);
    const fix =
      `kafka-configs.sh --bootstrap-server ${stack.env.KAFKA_BROKERS.join(',')} --alter ` +
      `--entity-type topics --entity-name ${createTime} --add-config message.timestamp.type=LogAppendTime`;

    const dryRun = await runCli(stack, ['publish', '--dry-run', '--topic', createTime, file]);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stderr).toContain(
      `tickertape: warning: ${createTime} has message.timestamp.type=CreateTime, not LogAppendTime`,
    );
    expect(dryRun.stderr).toContain(fix);
    const groups = await runCli(stack, ['groups', '--topic', createTime, '--interval', '0']);
    expect(groups.stderr).toContain(fix);
    const topics = await tickertape(stack, [
      'topics',
      'create',
      '--topic',
      createTime,
      '--dlq-topic',
      dlq,
    ]);
    expect(topics.code).toBe(0);
    expect(topics.stderr).toContain(fix);

    for (const args of [
      ['publish', '--dry-run', '--topic', topic, file],
      ['groups', '--topic', topic, '--interval', '0'],
    ]) {
      expect((await runCli(stack, args)).stderr).not.toContain('message.timestamp.type');
    }
    // The worker on the LogAppendTime topic said nothing of it at start either.
    expect(pipeline.worker('minute')!.output()).not.toContain('message.timestamp.type');
  }, 90_000);
});
