/**
 * The read-only commands on the real database with MONGODB_URI as the only address: `query`
 * and `levels` answer, a command that needs Kafka refuses naming KAFKA_BROKERS, and the exit
 * codes of docs/querying.md hold (0 answered, 2 refused or bad usage).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { runCliWithEnv, tickertape } from '../support/cli.js';

const START = Date.parse('2026-11-19T10:00:00Z');
const TAGS = { sensor: 's1' };

describe('commands that only read the database', () => {
  let stack: TestStack;
  let database: string;
  let databaseOnly: Record<string, string>;
  const run = (args: string[]) => runCliWithEnv(stack, databaseOnly, args);

  beforeAll(async () => {
    stack = await TestStack.open('cli-database-only');
    const db = testDatabase(stack);
    database = db.databaseName;
    databaseOnly = { MONGODB_URI: stack.env.MONGODB_URI, LOG_LEVEL: 'warn' };
    const inputs = [0, 1, 2].map((i): FoldInput => ({
      seriesKey: seriesKey('traffic', TAGS),
      metric: 'traffic',
      tags: TAGS,
      ts: START + i * 10_000,
      fields: { speed: 50 + i },
      strings: {},
      offset: i,
      kafkaPartition: 0,
    }));
    for (const level of LEVELS) await (await storesOf(db)).rollups.writer(level).apply(inputs);
  }, 60_000);
  afterAll(() => stack.close());

  const window = ['--from', '2026-11-19T09:00:00Z', '--to', '2026-11-19T11:00:00Z'];

  it('answers a query with exit 0', async () => {
    const answer = await run([
      'query',
      'series',
      '--metric',
      'traffic',
      ...window,
      '--database',
      database,
      '--format',
      'json',
    ]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain(seriesKey('traffic', TAGS));
  });

  it('shows the level policy', async () => {
    const policy = await run(['levels', '--database', database]);
    expect(policy).toMatchObject({ code: 0, stderr: '' });
    expect(policy.stdout).toMatch(/^minute\s+keeps every metric$/m);
  });

  it('refuses a command that needs Kafka, naming KAFKA_BROKERS, with exit 2', async () => {
    const groups = await run(['groups']);
    expect(groups.code).toBe(2);
    expect(groups.stderr).toContain('KAFKA_BROKERS: is required by this command');
    expect(groups.stderr).not.toContain('MONGODB_URI');
  });

  it('exits 2 for a refused query and for bad usage', async () => {
    const backwards = await run([
      'query',
      'series',
      '--metric',
      'traffic',
      '--from',
      '2026-11-19T11:00:00Z',
      '--to',
      '2026-11-19T09:00:00Z',
      '--database',
      database,
    ]);
    expect(backwards.code).toBe(2);
    const unknownFlag = await run(['query', 'series', '--metric', 'traffic', '--bogus']);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("unknown option '--bogus'");
  });

  it('runs as the binary with MONGODB_URI alone', async () => {
    const spawned = await tickertape(stack, ['levels', '--database', database], '', {
      KAFKA_BROKERS: '',
      SCHEMA_REGISTRY_URL: '',
      REDIS_URL: '',
    });
    expect(spawned.code).toBe(0);
    expect(spawned.stdout).toMatch(/^day\s+keeps every metric$/m);
  }, 30_000);
});
