/**
 * `--format json` on every command that prints a result, against the real stack: stdout is one
 * JSON document a parser reads, whatever else the command says on stderr; `--json` still works,
 * with a deprecation note; and progress reaches a redirected stderr only with `--progress`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack } from '@tickertape/testing';
import { valueSubject } from '@tickertape/tick';
import type { Consumer } from 'kafkajs';
import type { Db } from 'mongodb';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSON_DEPRECATED } from '../../src/output/format-option.js';
import { runCli, type CliRun } from '../support/cli.js';

/** stdout as the one JSON document `--format json` promises. */
function document(run: CliRun): Record<string, unknown> {
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trimEnd()).not.toContain('\n');
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** The progress lines of `label` in a run's stderr. */
const progressLines = (run: CliRun, label: string) =>
  run.stderr.split('\n').filter((line) => line.startsWith(`${label}: `) && line.includes('%'));

const HOUR = 3_600_000;

describe('--format json and --progress on every command', () => {
  let stack: TestStack;
  let dir: string;
  let topic: string;
  let dlqTopic: string;
  let db: Db;
  let file: string;
  const ticks = 200;
  // Whole hours well inside every store's retention, a day back.
  const start = Math.floor(Date.now() / HOUR) * HOUR - 24 * HOUR;

  beforeAll(async () => {
    stack = await TestStack.open('cli-formats');
    dir = await mkdtemp(join(tmpdir(), 'tickertape-formats-'));
    topic = await stack.createTopic({ partitions: 2 });
    dlqTopic = await stack.createTopic();
    stack.subject(valueSubject(topic));
    db = testDatabase(stack);
    file = join(dir, 'ticks.jsonl');
    const lines = Array.from({ length: ticks }, (_, i) =>
      JSON.stringify({
        metric: 'traffic',
        tags: { sensor: `s${i % 4}` },
        ts: start + i * 15_000,
        fields: { speed: 40 + (i % 20) },
      }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await stack.close();
  });

  it('topics create', async () => {
    const run = await runCli(stack, [
      'topics',
      'create',
      '--topic',
      topic,
      '--dlq-topic',
      dlqTopic,
      '--partitions',
      '2',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(document(run).topics).toEqual([
      expect.objectContaining({ topic, partitions: 2, created: false }),
      expect.objectContaining({ topic: dlqTopic, partitions: 1, created: false }),
    ]);
  });

  it('publish a file: the report as JSON, progress in bytes only with --progress', async () => {
    const quiet = await runCli(stack, ['publish', '--topic', topic, '--format', 'json', file]);
    expect(quiet.code).toBe(0);
    expect(document(quiet)).toMatchObject({ topic, published: ticks, bad: 0 });
    expect(progressLines(quiet, 'publish')).toEqual([]);

    const shown = await runCli(stack, [
      'publish',
      '--topic',
      topic,
      '--format',
      'json',
      '--progress',
      file,
    ]);
    expect(document(shown)).toMatchObject({ published: ticks });
    expect(progressLines(shown, 'publish').at(-1)).toMatch(
      /^publish: 100% \([\d,]+\/[\d,]+ bytes\)/,
    );
  }, 60_000);

  it('publish --format jsonl, the old way to name the input, still reads it (with a note)', async () => {
    const run = await runCli(stack, ['publish', '--topic', topic, '--format', 'jsonl', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^published 200 ticks/);
    expect(run.stderr).toContain(
      'tickertape: --format jsonl for the input is deprecated: use --input-format jsonl\n',
    );
  }, 60_000);

  it('loadgen', async () => {
    const run = await runCli(stack, [
      'loadgen',
      '--profile',
      'stocks',
      '--series',
      '2',
      '--rate',
      '40',
      '--duration',
      '250ms',
      '--topic',
      topic,
      '--format',
      'json',
      '--progress',
    ]);
    expect(run.code).toBe(0);
    const report = document(run);
    expect(report).toMatchObject({ profile: 'stocks', acknowledged: 10, failed: 0 });
    expect(Object.keys(report.perSeries as object)).toHaveLength(2);
    expect(progressLines(run, 'loadgen stocks').at(-1)).toMatch(
      /^loadgen stocks: 100% \(10\/10 ticks\)/,
    );
  }, 60_000);

  it('backfill: the report as JSON, progress only with --progress', async () => {
    const quiet = await runCli(stack, [
      'backfill',
      '--database',
      db.databaseName,
      '--format',
      'json',
      file,
    ]);
    expect(quiet.code).toBe(0);
    expect(document(quiet)).toMatchObject({ lines: ticks, ticks, rejected: 0 });
    expect(progressLines(quiet, 'backfill')).toEqual([]);

    // The same file again changes nothing, and still says how far it got.
    const shown = await runCli(stack, [
      'backfill',
      '--database',
      db.databaseName,
      '--json',
      '--progress',
      file,
    ]);
    expect(document(shown)).toMatchObject({ lines: ticks });
    expect(shown.stderr).toContain(JSON_DEPRECATED);
    expect(progressLines(shown, 'backfill').length).toBeGreaterThan(0);
  }, 120_000);

  it('levels, levels skip, levels suggest', async () => {
    const database = ['--database', db.databaseName];
    const skipped = await runCli(stack, [
      'levels',
      ...database,
      'skip',
      'minute',
      'sparse.metric',
      '--format',
      'json',
    ]);
    expect(skipped.code).toBe(0);
    expect(document(skipped)).toMatchObject({
      levels: { minute: { skip: ['sparse.metric'], compact: [] } },
    });
    const shown = await runCli(stack, ['levels', ...database, '--format', 'json']);
    expect(document(shown)).toMatchObject({ levels: { minute: { skip: ['sparse.metric'] } } });
    const suggested = await runCli(stack, [
      'levels',
      ...database,
      'suggest',
      '--hours',
      '48',
      '--format',
      'json',
    ]);
    expect(document(suggested)).toMatchObject({
      hours: 48,
      suggestions: [expect.objectContaining({ metric: 'traffic' })],
    });
    // The parent's flag, written after the subcommand, is the subcommand's too.
    const after = await runCli(stack, [
      'levels',
      'keep',
      'minute',
      'sparse.metric',
      ...database,
      '--json',
    ]);
    expect(document(after)).toMatchObject({ levels: { minute: { skip: [] } } });
  }, 60_000);

  it('query series and status', async () => {
    const series = await runCli(stack, [
      'query',
      'series',
      '--database',
      db.databaseName,
      '--from',
      new Date(start).toISOString(),
      '--format',
      'json',
    ]);
    expect(series.code).toBe(0);
    expect(JSON.stringify(document(series))).toContain('traffic|sensor=s0');
    const status = await runCli(stack, [
      'query',
      'status',
      '--database',
      db.databaseName,
      '--series',
      'traffic|sensor=s0',
      '--json',
    ]);
    expect(status.code).toBe(0);
    expect(JSON.stringify(document(status))).toContain('minute');
    expect(status.stderr).toBe(JSON_DEPRECATED);
  }, 60_000);

  it('groups: JSON even when the verdict is exit 1', async () => {
    const run = await runCli(stack, [
      'groups',
      '--topic',
      topic,
      '--stores',
      'minute',
      '--group',
      `minute=${stack.name('nobody')}`,
      '--interval',
      '0',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(1);
    expect(document(run)).toMatchObject({ topic, ok: false });
  }, 60_000);

  it('verify: JSON, and each stage on stderr with --progress', async () => {
    const emptyTopic = await stack.createTopic();
    const fresh = testDatabase(stack);
    const args = [
      'verify',
      '--topic',
      emptyTopic,
      '--dlq-topic',
      dlqTopic,
      '--database',
      fresh.databaseName,
      '--wait-ms',
      '0',
      '--format',
      'json',
    ];
    const quiet = await runCli(stack, args);
    expect(quiet.code).toBe(0);
    expect(document(quiet)).toMatchObject({ topic: emptyTopic, differences: [] });
    expect(quiet.stderr).toBe('');

    const shown = await runCli(stack, [...args, '--progress']);
    expect(document(shown)).toMatchObject({ differences: [] });
    expect(progressLines(shown, 'verify: tick topic')).toEqual([
      expect.stringMatching(/^verify: tick topic: 100% \(0\/0 records\)/),
    ]);
    expect(progressLines(shown, 'verify: dead letters')).toHaveLength(1);
    expect(progressLines(shown, 'verify: comparing')).toEqual([
      expect.stringMatching(/^verify: comparing: 100% \(4\/4 stores\)/),
    ]);
  }, 120_000);

  it('redrive: JSON, the DLQ read on stderr with --progress', async () => {
    const run = await runCli(stack, [
      'redrive',
      '--dlq-topic',
      dlqTopic,
      '--dry-run',
      '--format',
      'json',
      '--progress',
    ]);
    expect(run.code).toBe(0);
    expect(document(run)).toMatchObject({ dlqTopic, dryRun: true, total: { seen: 0 } });
    expect(progressLines(run, 'redrive (dry run)')).toHaveLength(1);
  }, 60_000);

  describe('replay', () => {
    let member: Consumer;
    const group = () => stack.name('replayed');
    let groupId: string;

    beforeAll(async () => {
      groupId = group();
      member = stack.kafka.consumer({ groupId });
      await member.connect();
      await member.subscribe({ topic, fromBeginning: true });
      let joined: () => void = () => undefined;
      const isIn = new Promise<void>((resolve) => (joined = resolve));
      member.on(member.events.GROUP_JOIN, () => joined());
      await member.run({ eachMessage: () => Promise.resolve() });
      await isIn;
    }, 60_000);
    afterAll(async () => {
      await member.disconnect();
    });

    const replay = (...extra: string[]) =>
      runCli(stack, [
        'replay',
        '--store',
        'minute',
        '--group',
        groupId,
        '--topic',
        topic,
        ...extra,
      ]);

    it('--wait shows the wait with --progress, and not without', async () => {
      const quiet = await replay('--wait', '1500ms');
      expect(quiet.code).not.toBe(0);
      expect(progressLines(quiet, `replay: waiting for ${groupId} to empty`)).toEqual([]);

      const shown = await replay('--wait', '1500ms', '--progress');
      expect(shown.stderr).toMatch(/GROUP_HAS_MEMBERS|member/);
      expect(progressLines(shown, `replay: waiting for ${groupId} to empty`).at(-1)).toMatch(
        /\(1\/2 s\)/,
      );
    }, 60_000);

    it('the rewound offsets as JSON once the group is empty', async () => {
      await member.disconnect();
      const run = await replay('--wait', '45s', '--format', 'json');
      expect(run.code).toBe(0);
      expect(document(run)).toMatchObject({
        groupId,
        topic,
        from: 'earliest',
        partitions: [
          { partition: 0, offset: expect.any(String) },
          { partition: 1, offset: expect.any(String) },
        ],
      });
    }, 90_000);
  });

  it('rebuild --cleanup', async () => {
    const run = await runCli(stack, [
      'rebuild',
      '--cleanup',
      '--dry-run',
      '--database',
      db.databaseName,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(document(run)).toEqual({ dropped: [], dryRun: true });
  }, 60_000);

  it('roundtrip', async () => {
    const own = await stack.createTopic();
    stack.subject(valueSubject(own));
    const run = await runCli(stack, [
      'roundtrip',
      '--topic',
      own,
      '--database',
      testDatabase(stack).databaseName,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(document(run)).toMatchObject({ schemaId: expect.any(Number), partition: 0 });
  }, 60_000);

  it('summary', async () => {
    const run = await runCli(stack, [
      'summary',
      '--database',
      db.databaseName,
      '--workers',
      '',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(document(run)).toMatchObject({ workers: [], windowMinutes: 10 });
  }, 60_000);
});
