/**
 * `tickertape query raw` on the real stack: ticks written by the real SegmentWriter, then the
 * command in every format, compared with the ticks: the range's points, and the nearest point
 * on each side marked as such (across midnight, from the other day's collection).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import type { FoldInput } from '@tickertape/buckets';
import type { RawPointsResult } from '@tickertape/query';
import { SegmentWriter } from '@tickertape/segments';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import { parse } from 'csv-parse/sync';
import { runCli } from '../support/cli.js';
import { testDatabase } from '@tickertape/store/testing';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const START = at('2026-11-19T23:50:00Z');
const END = at('2026-11-20T00:10:00Z');
const SERIES = seriesKey('traffic', { sensor: 's1' });

interface Tick {
  ts: number;
  fields: Record<string, number>;
}

/**
 * A reading every 10 s (plus 250 ms, so times carry milliseconds) from 23:50 to 00:10, in
 * halves so values print exactly; `count` only on every third reading, so a missing value shows.
 */
const TICKS: Tick[] = [];
for (let ts = START + 250, k = 0; ts < END; ts += 10_000, k++)
  TICKS.push({ ts, fields: { speed: 40 + (k % 17) / 2, ...(k % 3 === 0 ? { count: k } : {}) } });

const inputs: FoldInput[] = TICKS.map((tick, offset) => ({
  seriesKey: SERIES,
  metric: 'traffic',
  tags: { sensor: 's1' },
  ts: tick.ts,
  fields: tick.fields,
  strings: {},
  kafkaPartition: 0,
  offset,
}));

/** The answer the ticks call for in [from, to), optionally narrowed to one field. */
function expected(fromMs: number, toMs: number, field?: string) {
  const pick = (tick: Tick | undefined) =>
    tick === undefined
      ? null
      : {
          t: tick.ts,
          v:
            field === undefined
              ? tick.fields
              : field in tick.fields
                ? { [field]: tick.fields[field]! }
                : {},
        };
  return {
    series: SERIES,
    fromMs,
    toMs,
    points: TICKS.filter((t) => t.ts >= fromMs && t.ts < toMs).map((t) => pick(t)!),
    before: pick(TICKS.filter((t) => t.ts < fromMs).at(-1)),
    after: pick(TICKS.find((t) => t.ts >= toMs)),
  };
}

describe('tickertape query raw', () => {
  let stack: TestStack;
  let database: string;

  beforeAll(async () => {
    stack = await TestStack.open('cli-raw');
    const db = testDatabase(stack);
    database = db.databaseName;
    // Segments far larger than a day's points here: one segment per day, so documents are countable.
    await new SegmentWriter((await storesOf(db)).segments, {
      maxPoints: 1000,
      writeOnlyOnChange: new Set(),
    }).apply(inputs);
  }, 60_000);
  afterAll(() => stack.close());

  const query = (args: string[], now?: number) =>
    runCli(
      stack,
      ['query', 'raw', '--series', SERIES, ...args, '--database', database],
      '',
      now === undefined ? undefined : () => now,
    );

  // Across midnight: 23:55 to 00:05, the neighbours at 23:54:50.250 and 00:05:00.250.
  const from = at('2026-11-19T23:55:00Z');
  const to = at('2026-11-20T00:05:00Z');
  const range = ['--from', iso(from), '--to', iso(to)];

  it('--format json: the reader’s result, equal to the ticks, with both neighbours', async () => {
    const run = await query([...range, '--format', 'json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(run.stdout) as RawPointsResult;
    const { examined, ...rest } = result;
    expect(rest).toEqual(expected(from, to));
    expect(result.points).toHaveLength(60);
    expect(result.before).toEqual({
      t: at('2026-11-19T23:54:50.250Z'),
      v: expect.any(Object),
    });
    // One segment of each day.
    expect(examined).toBe(2);
  });

  it('--format csv: the API’s raw table (instants, series and tags, a position column before|in|after, empty cells for missing values), cost on stderr', async () => {
    const run = await query([...range, '--format', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n')[0]).toBe('time,time_ms,series,sensor,position,count,speed');
    const records = parse<Record<string, string>>(run.stdout, { columns: true });
    const want = expected(from, to);
    const all = [want.before!, ...want.points, want.after!];
    expect(records).toEqual(
      all.map((point, i) => ({
        time: new Date(point.t).toISOString(),
        time_ms: String(point.t),
        series: SERIES,
        sensor: 's1',
        position: i === 0 ? 'before' : i === all.length - 1 ? 'after' : 'in',
        count: point.v.count === undefined ? '' : String(point.v.count),
        speed: String(point.v.speed),
      })),
    );
    expect(run.stderr).toMatch(/^60 points; the nearest before at 2026-11-19T23:54:50.250Z, /m);
    expect(run.stderr).toMatch(/^examined 2 documents$/m);
  });

  it('--format table: the neighbours as a first row marked before and a last marked after', async () => {
    const run = await query(range);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^time\s+count\s+speed\s+position$/);
    expect(lines[1]).toMatch(/^2026-11-19T23:54:50\.250Z\s+.*\s+before$/);
    // 23:55:00.250 is reading 30: it carries a count, and speed 40 + 13/2.
    expect(lines[2]).toMatch(/^2026-11-19T23:55:00\.250Z\s+30\s+46\.5$/);
    // The next one has no count: an empty cell, not 0.
    expect(lines[3]).toMatch(/^2026-11-19T23:55:10\.250Z\s+47$/);
    expect(lines[62]).toMatch(/^2026-11-20T00:05:00\.250Z\s+.*\s+after$/);
    expect(lines.slice(2, 62).every((line) => !/before|after/.test(line))).toBe(true);
    expect(lines.slice(63)).toEqual([
      `${SERIES} from 2026-11-19T23:55:00Z to 2026-11-20T00:05:00Z: raw points from the segment store`,
      '60 points; the nearest before at 2026-11-19T23:54:50.250Z, the nearest after at 2026-11-20T00:05:00.250Z',
      'examined 2 documents',
    ]);
  });

  it('--field narrows to one column; a range inside one segment reads one document', async () => {
    const narrow = ['--from', '2026-11-19T23:55:00Z', '--to', '2026-11-19T23:56:00Z'];
    const run = await query([...narrow, '--field', 'speed', '--format', 'json']);
    expect(run.code).toBe(0);
    const { examined, ...rest } = JSON.parse(run.stdout) as RawPointsResult;
    expect(rest).toEqual(expected(at('2026-11-19T23:55:00Z'), at('2026-11-19T23:56:00Z'), 'speed'));
    expect(examined).toBe(1);
    const csv = await query([...narrow, '--field', 'speed', '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('time,time_ms,series,sensor,position,speed');
  });

  it('reads the last hour by default, from the clock: the newest point has no neighbour after it', async () => {
    const run = await query(['--format', 'json'], at('2026-11-20T00:30:00Z'));
    expect(run.code).toBe(0);
    const { examined, ...rest } = JSON.parse(run.stdout) as RawPointsResult;
    expect(rest).toEqual(expected(at('2026-11-19T23:30:00Z'), at('2026-11-20T00:30:00Z')));
    expect(rest.after).toBeNull();
    expect(rest.before).toBeNull();
    expect(examined).toBe(2);
    const table = await query([], at('2026-11-20T00:30:00Z'));
    expect(table.stdout).toContain('120 points; no point kept before, none after yet\n');
  });

  it('refuses a bad field or range with exit 2 and one line naming the code', async () => {
    const field = await query([...range, '--field', 'a.b']);
    expect(field.code).toBe(2);
    expect(field.stderr).toMatch(/QUERY_INVALID_NAME: invalid field name "a\.b"/);
    const backwards = await query(['--from', iso(to), '--to', iso(from)]);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/QUERY_INVALID_RANGE/);
  });
});
