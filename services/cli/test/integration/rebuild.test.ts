/**
 * `tickertape rebuild` on the real stack with the real workers: ticks of the last three whole
 * hours rolled up by the minute and hour workers, the watermark moved by the test (it plays the
 * scheduler), then lost hour buckets restored from the minute level and from the topic, a dry run,
 * the refusals, the cleanup, and a rebuild of the minute level while live workers keep writing the
 * current (non-final) slots.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parsePartitionName, type Level } from '@tickertape/buckets';
import { shadowPlan, storesOf, withoutShellPadding } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import { compareBuckets, type VerifyReport } from '@tickertape/verify';
import { Partitioners, type Producer } from 'kafkajs';
import type { Db, Document } from 'mongodb';
import type { RebuildPlan, RebuildReport } from '@tickertape/history';
import { runCli } from '../support/cli.js';
import { Pipeline } from '../support/pipeline.js';
import { testDatabase } from '@tickertape/store/testing';

const HOUR = 3_600_000;
/** Each test: the shared stand-in slows down while other suites run. */
const TEST_MS = 60_000;
const DAY = 24 * HOUR;
const SENSORS = ['s0', 's1', 's2', 's3'];

type Bucket = Document & { _id: string; start: Date };

/** Every bucket of `level` whose slot starts in `[fromMs, toMs)`, by `_id`. */
async function buckets(db: Db, level: Level, fromMs: number, toMs: number) {
  const found = new Map<string, Bucket>();
  for (const { name } of await (await storesOf(db)).rollups.listPartitions()) {
    if (parsePartitionName(name)?.level !== level) continue;
    for await (const doc of db.collection<Bucket>(name).find({
      start: { $gte: new Date(fromMs), $lt: new Date(toMs) },
    }))
      found.set(doc._id, doc);
  }
  return found;
}

/** Plain data with sorted keys, shell padding removed: what two equal buckets share. */
function canonical(doc: Record<string, unknown>): unknown {
  const sorted = (value: unknown): unknown => {
    if (Object.prototype.toString.call(value) === '[object Date]')
      return (value as Date).toISOString();
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
      );
    return value;
  };
  return sorted(withoutShellPadding(doc));
}

const names = async (db: Db) =>
  (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();

describe('tickertape rebuild', () => {
  let stack: TestStack;
  let topic: string;
  let db: Db;
  let codec: TickCodec;
  let producer: Producer;
  let pipeline: Pipeline;
  /** The range: the last three whole hours, final once the test moves the watermark. */
  let fromMs: number;
  let toMs: number;
  let lostHours: Map<string, Bucket>;

  const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');
  /** `--level L --from … --to …` and more. */
  const over = (level: Level, from: number, to: number, ...more: string[]) => [
    '--level',
    level,
    '--from',
    iso(from),
    '--to',
    iso(to),
    ...more,
  ];
  const rebuild = (args: string[]) =>
    runCli(stack, ['rebuild', '--database', db.databaseName, '--topic', topic, ...args]);
  const rebuildJson = async (args: string[]) => {
    const run = await rebuild([...args, '--format', 'json']);
    if (run.code !== 0) throw new Error(`rebuild exited ${run.code}: ${run.stderr}${run.stdout}`);
    return JSON.parse(run.stdout) as RebuildReport;
  };
  const verify = async (extra: string[] = []) => {
    const run = await runCli(stack, [
      'verify',
      '--topic',
      topic,
      '--dlq-topic',
      pipeline.topics.dlqTopic,
      '--database',
      db.databaseName,
      '--stores',
      'minute,hour',
      '--group',
      `minute=${pipeline.groups.minute}`,
      '--group',
      `hour=${pipeline.groups.hour}`,
      '--wait-ms',
      '60000',
      '--format',
      'json',
      ...extra,
    ]);
    return JSON.parse(run.stdout) as VerifyReport;
  };
  const publish = async (ticks: Tick[]) => {
    await producer.send({
      topic,
      messages: await Promise.all(
        ticks.map(async (tick) => ({
          key: seriesKey(tick.metric, tick.tags),
          value: await codec.encode(tick),
        })),
      ),
    });
  };
  const dropHourPartitions = async () => {
    for (const { name } of await (await storesOf(db)).rollups.listPartitions())
      if (parsePartitionName(name)?.level === 'hour') await db.collection(name).drop();
  };

  beforeAll(async () => {
    stack = await TestStack.open('cli-rebuild');
    topic = await stack.createTopic({
      partitions: 2,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    db = testDatabase(stack);
    stack.subject(valueSubject(topic));
    codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: valueSubject(topic),
    });
    pipeline = new Pipeline(stack, {
      topic,
      dlqTopic: await stack.createTopic(),
      database: db.databaseName,
    });
    producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();

    const now = Date.now();
    toMs = Math.floor(now / HOUR) * HOUR;
    fromMs = toMs - 3 * HOUR;
    // A reading every 40 s per sensor (integers, so sums are exact), within the workers'
    // lateness bound of the records' append time; a string now and then.
    const ticks: Tick[] = [];
    SENSORS.forEach((sensor, i) => {
      for (let ts = fromMs + i * 7000; ts < toMs; ts += 40_000)
        ticks.push({
          metric: 'traffic',
          tags: { sensor },
          ts,
          fields: { speed: 20 + ((ts / 1000) % 50), travel_time: 100 + i },
          strings: ts % 3 === 0 ? { conditions: ts % 2 === 0 ? 'rain' : 'clear' } : {},
        });
    });
    await publish(ticks);
    await pipeline.start(['minute', 'hour']);
    const caughtUp = await verify();
    expect(caughtUp.differences).toEqual([]);
    await pipeline.stop();
    // The test plays the scheduler: everything before the current hour is final.
    await (await storesOf(db)).rollups.advanceWatermarks({ minute: toMs, hour: toMs }, now);
    lostHours = await buckets(db, 'hour', fromMs, toMs);
    expect(lostHours.size).toBe(SENSORS.length * 3);
  }, 120_000);

  afterAll(async () => {
    await pipeline.stop();
    await producer.disconnect();
    await stack.close();
  }, TEST_MS);

  it(
    'prints the plan on a dry run and writes nothing',
    async () => {
      const before = await names(db);
      const run = await rebuild(over('hour', fromMs, toMs, '--dry-run'));
      expect(run.code).toBe(0);
      const minutes = (await buckets(db, 'minute', fromMs, toMs)).size;
      expect(run.stdout).toContain(
        `rebuild plan (dry run, nothing written): hour buckets from ${iso(fromMs)} to ${iso(toMs)} from the minute buckets`,
      );
      const plan = JSON.parse(
        (await rebuild(over('hour', fromMs, toMs, '--dry-run', '--format', 'json'))).stdout,
      ) as RebuildPlan;
      expect(plan.partitions.reduce((sum, p) => sum + (p.sourceBuckets ?? 0), 0)).toBe(minutes);
      expect(plan.partitions.reduce((sum, p) => sum + p.liveBuckets, 0)).toBe(lostHours.size);
      const fromTopic = await rebuild(
        over('minute', fromMs, toMs, '--source', 'topic', '--dry-run'),
      );
      expect(fromTopic.stdout).toMatch(
        /topic .*: p0 0\.\.\d+, p1 0\.\.\d+ \(\d+ records to read\)/,
      );
      expect(await names(db)).toEqual(before);
    },
    TEST_MS,
  );

  it(
    'refuses a range that is not final or not on slot boundaries, writing nothing',
    async () => {
      const before = await names(db);
      const late = await rebuild(over('hour', fromMs, toMs + HOUR));
      expect(late.code).toBe(2);
      expect(late.stderr).toContain('REBUILD_NOT_FINAL');
      expect(late.stderr).toContain(`finalBefore ${iso(toMs)}`);
      const skewed = await rebuild(over('hour', fromMs + 30 * 60_000, toMs));
      expect(skewed.code).toBe(2);
      expect(skewed.stderr).toContain(
        `is not on an hour boundary: the nearest are ${iso(fromMs)} and ${iso(fromMs + HOUR)}`,
      );
      const wrongSource = await rebuild(
        over('day', toMs - (toMs % DAY) - DAY, toMs - (toMs % DAY), '--source', 'minute'),
      );
      expect(wrongSource.code).toBe(2);
      expect(wrongSource.stderr).toContain('use --source hour or --source topic');
      expect(await names(db)).toEqual(before);
    },
    TEST_MS,
  );

  it.each(['minute', 'topic'] as const)(
    'restores a dropped hour partition from the %s, bucket for bucket',
    async (source) => {
      await dropHourPartitions();
      const report = await rebuildJson(over('hour', fromMs, toMs, '--source', source));
      expect(report.differences).toEqual([]);
      expect(report.live).toMatchObject({ restored: lostHours.size, changed: 0, removed: 0 });
      expect(report.written).toBe(lostHours.size);
      const restored = await buckets(db, 'hour', fromMs, toMs);
      const want = new Map(
        [...lostHours].map(([id, { _id: _ignored, ...doc }]) => [
          id,
          doc as Record<string, unknown>,
        ]),
      );
      expect(compareBuckets('hour', want, restored)).toEqual([]);
      for (const [id, lost] of lostHours)
        expect(canonical(restored.get(id)!)).toEqual(canonical(lost));
      expect((await verify(['--from', iso(fromMs), '--to', iso(toMs)])).differences).toEqual([]);
    },
    TEST_MS,
  );

  it('rebuilds the minute level while live workers write the current slots, losing nothing', async () => {
    // Damage the range: three minute buckets lost, one counted twice.
    const minutes = [...(await buckets(db, 'minute', fromMs, toMs)).values()];
    const partition = (doc: Bucket) =>
      `rollup_minute_${iso(doc.start.getTime()).slice(0, 10).replace(/-/g, '')}`;
    for (const doc of minutes.slice(0, 3))
      await db.collection<Bucket>(partition(doc)).deleteOne({ _id: doc._id });
    await db
      .collection<Bucket>(partition(minutes[3]!))
      .updateOne({ _id: minutes[3]!._id }, { $inc: { n: 1 } });

    await pipeline.start(['minute', 'hour']);
    let publishing = true;
    let live = 0;
    const load = (async () => {
      while (publishing) {
        await publish(
          SENSORS.map((sensor, i) => ({
            metric: 'traffic',
            tags: { sensor },
            ts: Date.now(),
            fields: { speed: 30 + i, travel_time: 100 + i },
            strings: {},
          })),
        );
        live += SENSORS.length;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      const run = await rebuild(over('minute', fromMs, toMs));
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /against the live buckets: \d+ same, 1 changed, 3 restored, 0 removed/,
      );
      expect(run.stdout).toMatch(
        /0 differences, .* \(\d+ buckets\/s; fold .*, check .*, swap .*\)/,
      );
      const hours = await rebuildJson(over('hour', fromMs, toMs));
      expect(hours.live).toMatchObject({
        same: lostHours.size,
        changed: 0,
        restored: 0,
        removed: 0,
      });
    } finally {
      publishing = false;
      await load;
    }
    expect(live).toBeGreaterThan(0);
    // Everything, the live slots included: what the workers wrote meanwhile is all there.
    const report = await verify();
    expect(report.differences).toEqual([]);
    expect(report.stores.find((s) => s.store === 'minute')?.expected).toBeGreaterThan(
      minutes.length,
    );
    await pipeline.stop();
  }, 90_000);
  it(
    'carries on a run killed during its swap when the same command runs again',
    async () => {
      const now = Date.now();
      const runId = 'killed-swap-1';
      const [part, ...more] = shadowPlan('hour', fromMs, toMs, runId);
      // Killed a minute ago, after its shadows were checked, before it swapped: they say n + 1000.
      await (
        await storesOf(db)
      ).rollups.startRun(
        {
          id: runId,
          kind: 'rebuild',
          level: 'hour',
          fromMs,
          toMs,
          source: 'minute',
          partitions: [part!.live, ...more.map((p) => p.live)],
        },
        now - 60_000,
      );
      await (await storesOf(db)).rollups.updateRun(runId, now - 60_000, { state: 'swapping' });
      for (const p of [part!, ...more]) {
        await (await storesOf(db)).rollups.seedShadow(p);
        await db.collection(p.shadow).updateMany({}, { $inc: { n: 1000 } });
      }
      const report = await rebuildJson(over('hour', fromMs, toMs));
      expect(report).toMatchObject({ runId, resumed: true, read: { kind: 'none' } });
      expect(report.written).toBe(lostHours.size);
      const swapped = await buckets(db, 'hour', fromMs, toMs);
      for (const [id, lost] of lostHours)
        expect(swapped.get(id)!.n).toBe((lost.n as number) + 1000);
      // A fresh rebuild puts the level back as its source says.
      const fresh = await rebuildJson(over('hour', fromMs, toMs));
      expect(fresh.resumed).toBe(false);
      expect(fresh.live).toMatchObject({ changed: lostHours.size });
      expect((await verify(['--from', iso(fromMs), '--to', iso(toMs)])).differences).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'drops the replaced collections on --cleanup (a dry run lists them)',
    async () => {
      const replaced = (await names(db)).filter((name) => name.startsWith('replaced_'));
      expect(replaced.length).toBeGreaterThan(0);
      const dry = await rebuild(['--cleanup', '--dry-run']);
      expect(dry.code).toBe(0);
      for (const name of replaced) expect(dry.stdout).toContain(name);
      expect((await names(db)).filter((name) => name.startsWith('replaced_'))).toEqual(replaced);
      const run = await rebuild(['--cleanup']);
      expect(run.stdout).toContain(`dropped ${replaced.length} collection`);
      expect((await names(db)).filter((n) => /^(replaced|shadow)_/.test(n))).toEqual([]);
      expect((await rebuild(['--cleanup'])).stdout).toBe('nothing to clean up\n');
    },
    TEST_MS,
  );
});
