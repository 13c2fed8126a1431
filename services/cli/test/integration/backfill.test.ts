/**
 * tickertape backfill on the real stack, checked against the checker's independent fold
 * (expectedBuckets, expectedPoints) of the same ticks at the file's partition and line offsets:
 * a data set crossing an hour and a UTC midnight five days ago, with late, equal-timestamp and
 * bad lines; a second run; a run killed half-way and run again; a 30-day-old set that only hour
 * and day take; a range live workers already wrote (the union); and final slots (the shadows).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { SegmentWriter, type SegmentDocument } from '@tickertape/segments';
import { storesOf } from '@tickertape/store';
import { prng, spawnNode, TestStack, waitFor } from '@tickertape/testing';
import { seriesKey, type Tick } from '@tickertape/tick';
import {
  compareBuckets,
  compareSeriesSegments,
  expectedBuckets,
  expectedPoints,
  storedBuckets,
  storedSegments,
  WHOLE_TIME,
  type Difference,
  type ExpectedPoint,
  type TruthTick,
} from '@tickertape/verify';
import { BSON, type Db } from 'mongodb';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { foldInputOf } from '@tickertape/history';
import { runCli, stackEnv } from '../support/cli.js';
import { testDatabase } from '@tickertape/store/testing';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STORES = [...LEVELS, 'segments'] as const;
type Store = (typeof STORES)[number];
const cliDir = fileURLToPath(new URL('../..', import.meta.url));

const HEADER = 'metric,ts,tag:sensor,tag:symbol,field:speed,field:price,field:volume,string:cond';

/** A data set as written: its text, the ticks each good line holds, the bad lines' numbers. */
interface DataSet {
  text: string;
  ticks: { line: number; tick: Tick }[];
  bad: number[];
  /** The file's partition, worked out here from its bytes as the command's help says. */
  source: number;
}

function sourceOf(text: string): number {
  const digest = createHash('sha256').update(text).digest('hex');
  return 1_000_000 + Number.parseInt(digest.slice(0, 10), 16);
}

function csvLine(tick: Tick): string {
  const { tags, fields, strings } = tick;
  const cell = (value: string | number | undefined) => (value === undefined ? '' : String(value));
  return [
    tick.metric,
    tick.ts,
    cell(tags.sensor),
    cell(tags.symbol),
    cell(fields.speed),
    cell(fields.price),
    cell(fields.volume),
    cell(strings.cond),
  ].join(',');
}

/**
 * 40 minutes around `midnight` (so an hour and a day boundary): 12 sensors every ~2 s, each now
 * and then with a reading up to 90 s late (out of order, across midnight for some), and 4 stock
 * symbols every second, every tenth second twice at the same millisecond. Integer values only,
 * so sums are exact in any grouping and documents can be compared whole. Six bad lines.
 */
function aroundMidnight(midnight: number, seed: number, nowMs: number): DataSet {
  const random = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const start = midnight - 20 * MINUTE;
  const ticks: Tick[] = [];
  for (let t = start; t < midnight + 20 * MINUTE; t += SECOND) {
    const second = (t - start) / SECOND;
    if (second % 2 === 0)
      for (let s = 0; s < 12; s++) {
        const late = random() < 0.02 ? int(30, 90) * SECOND : 0;
        ticks.push({
          metric: 'traffic',
          tags: { sensor: `s${s}` },
          ts: t + int(0, 1999) - late,
          fields: { speed: int(20, 80) },
          strings: { cond: ['clear', 'rain', 'fog'][int(0, 2)]! },
        });
      }
    for (let k = 0; k < 4; k++) {
      const tick = (price: number): Tick => ({
        metric: 'stock.tick',
        tags: { symbol: `SYM${k}` },
        ts: t + 250 * k,
        fields: { price, volume: int(1, 500) },
        strings: {},
      });
      ticks.push(tick(int(10_000, 20_000)));
      if (second % 10 === 0) ticks.push(tick(int(10_000, 20_000)));
    }
  }
  const lines = [HEADER];
  const good: DataSet['ticks'] = [];
  const bad: number[] = [];
  const badLines = [
    `traffic,notatime,s1,,50,,,clear`,
    `traffic,${midnight},s1,,fast,,,clear`,
    `traffic,${midnight}`,
    `,${midnight},s1,,50,,,clear`,
    `traffic,${nowMs + HOUR},s1,,50,,,clear`,
    `traffic,${midnight},s1,,,,,clear`,
  ];
  ticks.forEach((tick, i) => {
    if (i % 4000 === 1000 && badLines.length > 0) {
      lines.push(badLines.shift()!);
      bad.push(lines.length);
    }
    lines.push(csvLine(tick));
    good.push({ line: lines.length, tick });
  });
  for (const line of badLines) {
    lines.push(line);
    bad.push(lines.length);
  }
  const text = `${lines.join('\n')}\n`;
  return { text, ticks: good, bad, source: sourceOf(text) };
}

function truthOf(set: DataSet): TruthTick[] {
  return set.ticks.map(({ line, tick }) => ({
    series: seriesKey(tick.metric, tick.tags),
    metric: tick.metric,
    tags: tick.tags,
    ts: tick.ts,
    fields: tick.fields,
    strings: tick.strings,
    partition: set.source,
    offset: line,
  }));
}

/** Every difference between the stores and the fold of `truth` (per store, for refusals). */
async function differences(
  db: Db,
  truth: Readonly<Record<Store, readonly TruthTick[]>>,
): Promise<Difference[]> {
  const found: Difference[] = [];
  for (const level of LEVELS)
    found.push(
      ...compareBuckets(
        level,
        expectedBuckets(level, truth[level]),
        await storedBuckets((await storesOf(db)).rollups, level, WHOLE_TIME),
      ),
    );
  const want = expectedPoints(truth.segments, { writeOnChange: new Set() });
  const have = await storedSegments((await storesOf(db)).segments, WHOLE_TIME);
  for (const series of new Set([...want.keys(), ...have.keys()])) {
    const wanted = want.get(series) ?? new Map<number, ExpectedPoint[]>();
    const stored = have.get(series) ?? new Map<number, SegmentDocument[]>();
    for (const partition of new Set([...wanted.keys(), ...stored.keys()]))
      found.push(
        ...compareSeriesSegments(series, wanted.get(partition) ?? [], stored.get(partition) ?? [], {
          maxPoints: 500,
          partial: false,
        }),
      );
  }
  return found;
}

const everywhere = (ticks: readonly TruthTick[]) =>
  Object.fromEntries(STORES.map((store) => [store, ticks])) as Record<Store, TruthTick[]>;

/** Every document of the collections `keep` selects, serialised, by collection and `_id`. */
async function snapshot(db: Db, keep: (name: string) => boolean = () => true) {
  const out: Record<string, string[]> = {};
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of names.filter(keep).sort())
    out[name] = (await db.collection(name).find({}).sort({ _id: 1 }).toArray()).map((doc) =>
      Buffer.from(BSON.serialize(doc)).toString('hex'),
    );
  return out;
}

/** The same documents, whatever order their fields were first written in. */
async function documents(db: Db) {
  const out: Record<string, unknown[]> = {};
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of names.sort())
    out[name] = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
  return out;
}

const isData = (name: string) => name.startsWith('rollup_') || name.startsWith('segments_');

/** Writes `ticks` at Kafka partition 0 with the workers' own writers, as the live path does. */
async function writeLive(db: Db, ticks: readonly Tick[]): Promise<TruthTick[]> {
  const inputs = ticks.map((tick, offset) => foldInputOf(tick, 0, offset));
  for (const level of LEVELS) await (await storesOf(db)).rollups.writer(level).apply(inputs);
  await new SegmentWriter((await storesOf(db)).segments, {
    maxPoints: 500,
    writeOnlyOnChange: new Set(),
  }).apply(inputs);
  return inputs.map((input) => ({ ...input, series: input.seriesKey, partition: 0 }));
}

describe('tickertape backfill', () => {
  let stack: TestStack;
  let dir: string;
  const nowMs = Date.now();
  const midnight = (Math.floor(nowMs / DAY) - 5) * DAY;
  let set: DataSet;
  let file: string;
  let first: Db;

  beforeAll(async () => {
    stack = await TestStack.open('backfill');
    dir = await mkdtemp(join(tmpdir(), 'backfill-test-'));
    set = aroundMidnight(midnight, 14, nowMs);
    file = join(dir, 'history.csv');
    await writeFile(file, set.text);
    first = testDatabase(stack);
  }, 30_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await stack.close();
  }, 60_000);

  it('fills every level and the segment store as the fold of the file says, and names the bad lines', async () => {
    const run = await runCli(stack, ['backfill', '--database', first.databaseName, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`source partition ${set.source}`);
    expect(run.stdout).toContain(`${set.ticks.length} ticks, ${set.bad.length} rejected`);
    expect(run.stdout).toMatch(/BAD_LINE 3: lines \d+, \d+, \d+/);
    for (const reason of ['MISSING_METRIC', 'TIMESTAMP_OUT_OF_RANGE', 'NO_FIELDS'])
      expect(run.stdout).toContain(`${reason} 1: line `);
    expect(run.stdout).toContain(`lines ${set.bad[0]}, `);
    expect(run.stdout).not.toMatch(/refused/);
    // The late readings are late for the segment chains too, as on the live path.
    expect(run.stdout).toMatch(/[1-9]\d* late/);
    expect(await differences(first, everywhere(truthOf(set)))).toEqual([]);
  }, 120_000);

  it('changes nothing when the same file runs again, from stdin too', async () => {
    const before = await snapshot(first);
    const again = await runCli(stack, ['backfill', '--database', first.databaseName, file]);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/segments: \d+ ticks → 0 points stored/);
    const piped = await runCli(
      stack,
      ['backfill', '--database', first.databaseName, '--format', 'csv', '-'],
      set.text,
    );
    expect(piped.stdout).toContain(`source partition ${set.source}`);
    expect(await snapshot(first)).toEqual(before);
  }, 120_000);

  it('killed half-way and run again, ends where one whole run does', async () => {
    const db = testDatabase(stack);
    const child = spawnNode(
      cliDir,
      [
        '--import',
        'tsx',
        '--conditions=source',
        'src/main.ts',
        'backfill',
        '--database',
        db.databaseName,
        '--flush-lines',
        '300',
        '--progress',
        '--progress-every',
        '100ms',
        file,
      ],
      stackEnv(stack),
    );
    await waitFor(
      () => {
        if (child.child.exitCode !== null) throw new Error(`finished first: ${child.output()}`);
        const percents = [...child.output().matchAll(/backfill: (\d+)%/g)].map((m) => Number(m[1]));
        return percents.some((p) => p >= 30);
      },
      { description: 'progress at 30 % or more', timeoutMs: 60_000, intervalMs: 20 },
    );
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    const partial = await differences(db, everywhere(truthOf(set)));
    expect(partial.length).toBeGreaterThan(0);
    expect(
      (await storedBuckets((await storesOf(db)).rollups, 'minute', WHOLE_TIME)).size,
    ).toBeGreaterThan(0);

    const rerun = await runCli(stack, ['backfill', '--database', db.databaseName, file]);
    expect(rerun.code).toBe(1);
    expect(rerun.stdout).toMatch(/already applied/);
    expect(await differences(db, everywhere(truthOf(set)))).toEqual([]);
    expect(await documents(db)).toEqual(await documents(first));
  }, 120_000);

  it('leaves a 30-day-old set to hour and day, and says minute and segments refused it', async () => {
    const db = testDatabase(stack);
    const old = (Math.floor(nowMs / DAY) - 30) * DAY + 9 * HOUR;
    const lines: string[] = [];
    const good: DataSet['ticks'] = [];
    for (let i = 0; i < 600; i++) {
      const tick: Tick = {
        metric: 'traffic',
        tags: { sensor: `s${i % 3}` },
        ts: old + i * 7 * SECOND,
        fields: { speed: i % 70 },
        strings: {},
      };
      lines.push(JSON.stringify({ ...tick, ts: new Date(tick.ts).toISOString() }));
      good.push({ line: lines.length, tick });
    }
    const text = `${lines.join('\n')}\n`;
    const oldSet: DataSet = { text, ticks: good, bad: [], source: sourceOf(text) };
    const path = join(dir, 'last-month.jsonl');
    await writeFile(path, text);
    const run = await runCli(stack, ['backfill', '--database', db.databaseName, path]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "minute: 600 ticks refused: older than the minute level's retention (7 d) — its partitions are dropped",
    );
    expect(run.stdout).toContain(
      "segments: 600 ticks refused: older than the segment store's retention (7 d) — its days are dropped",
    );
    const truth = truthOf(oldSet);
    expect(await differences(db, { minute: [], hour: truth, day: truth, segments: [] })).toEqual(
      [],
    );
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names.filter((name) => /^(rollup_minute_|segments_)/.test(name))).toEqual([]);
  }, 120_000);

  it('adds to buckets live ticks wrote: each holds the union', async () => {
    const db = testDatabase(stack);
    const live = set.ticks
      .map(({ tick }) => tick)
      .filter((tick) => tick.ts >= midnight + 10 * MINUTE && tick.tags.sensor !== undefined)
      .map((tick) => ({ ...tick, fields: { speed: (tick.fields.speed ?? 0) + 1 } }));
    const liveTruth = await writeLive(db, live);
    const run = await runCli(stack, ['backfill', '--database', db.databaseName, file]);
    expect(run.code).toBe(1);
    expect(await differences(db, everywhere([...liveTruth, ...truthOf(set)]))).toEqual([]);
  }, 120_000);

  it('changes final slots through shadows, which end in place', async () => {
    const db = testDatabase(stack);
    const live = set.ticks
      .map(({ tick }) => tick)
      .filter((tick) => tick.tags.symbol === 'SYM0')
      .map((tick) => ({ ...tick, fields: { price: 1, volume: 1 } }));
    const liveTruth = await writeLive(db, live);
    // The scheduler's part: the first half hour of the set is final for minute, the hour before
    // midnight for hour; nothing for day.
    await (
      await storesOf(db)
    ).rollups.advanceWatermarks({ minute: midnight + 10 * MINUTE, hour: midnight }, nowMs);
    const run = await runCli(stack, ['backfill', '--database', db.databaseName, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/final slots went through 3 shadows/);
    expect(run.stdout).toMatch(/swapped in \(documents\)/);
    const union = everywhere([...liveTruth, ...truthOf(set)]);
    expect(await differences(db, union)).toEqual([]);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names.filter((name) => name.startsWith('shadow_'))).toEqual([]);
    expect(names.filter((name) => name.startsWith('replaced_')).length).toBeGreaterThan(0);
    const runs = await (await storesOf(db)).rollups.listRuns();
    expect(runs.map((r) => [r.kind, r.level, r.state]).sort()).toEqual([
      ['backfill', 'hour', 'done'],
      ['backfill', 'minute', 'done'],
    ]);

    const before = await snapshot(db, isData);
    const again = await runCli(stack, ['backfill', '--database', db.databaseName, file]);
    expect(again.stdout).toMatch(/nothing new/);
    expect(await snapshot(db, isData)).toEqual(before);
    expect(await differences(db, union)).toEqual([]);
  }, 120_000);
});
