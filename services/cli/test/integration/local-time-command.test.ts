/**
 * `tickertape query … --tz/--fill` on the real stack: local days in Los Angeles across the
 * spring change against a fold of the ticks, filled days marked, an unknown zone refused (exit 2).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, type FoldInput } from '@tickertape/buckets';
import type { FilledRangeResult, RangeResult } from '@tickertape/query';
import { storesOf } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { seriesKey } from '@tickertape/tick';
import { parse } from 'csv-parse/sync';
import { runCli } from '../support/cli.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const LA = 'America/Los_Angeles';
const SERIES = seriesKey('traffic', { sensor: 'la' });
/** Local 10 March has no ticks. */
const SILENT = { from: at('2026-03-10T07:00:00Z'), to: at('2026-03-11T07:00:00Z') };
const NOW = at('2026-04-01T00:00:00Z');

function generate(): FoldInput[] {
  const inputs: FoldInput[] = [];
  let k = 0;
  for (let ts = at('2026-03-06T00:00:10Z'); ts < at('2026-03-12T12:00:00Z'); ts += 11 * 60_000) {
    k++;
    if (ts >= SILENT.from && ts < SILENT.to) continue;
    inputs.push({
      seriesKey: SERIES,
      metric: 'traffic',
      tags: { sensor: 'la' },
      ts,
      fields: { speed: 30 + ((k * 29) % 70) },
      strings: {},
      kafkaPartition: 0,
      offset: k,
    });
  }
  return inputs;
}

/** The ticks' sums per Los Angeles date, read with Intl on its own. */
function localSums(inputs: readonly FoldInput[], from: number, to: number): [string, number][] {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: LA });
  const sums = new Map<string, number>();
  for (const tick of inputs)
    if (tick.ts >= from && tick.ts < to) {
      const day = date.format(tick.ts);
      sums.set(day, (sums.get(day) ?? 0) + tick.fields.speed!);
    }
  return [...sums];
}

describe('tickertape query --tz / --fill', () => {
  let stack: TestStack;
  let database: string;
  const inputs = generate();

  beforeAll(async () => {
    stack = await TestStack.open('cli-local-time');
    const db = testDatabase(stack);
    database = db.databaseName;
    for (const level of LEVELS) await (await storesOf(db)).rollups.writer(level).apply(inputs);
  }, 60_000);
  afterAll(() => stack.close());

  const query = (args: string[]) =>
    runCli(stack, ['query', ...args, '--database', database], '', () => NOW);
  const days = [
    'points',
    '--series',
    SERIES,
    '--field',
    'speed',
    '--from',
    '2026-03-06T08:00:00Z',
    '--to',
    '2026-03-12T07:00:00Z',
    '--level',
    'day',
    '--tz',
    LA,
  ];

  it('answers local days, each the fold of its ticks, the 23-hour one included', async () => {
    const run = await query([...days, '--format', 'json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(run.stdout) as RangeResult;
    expect(result.tz).toBe(LA);
    expect(result.points.map((p) => [p.local!.slice(0, 10), p.sum])).toEqual(
      localSums(inputs, at('2026-03-06T08:00:00Z'), at('2026-03-12T07:00:00Z')),
    );
    expect(result.points.map((p) => (p.end! - p.t) / HOUR)).toEqual([24, 24, 23, 24, 24]);
  });

  it('fills the silent day on request, marked in JSON, CSV and the table', async () => {
    const run = await query([...days, '--fill', 'previous', '--format', 'json']);
    const result = JSON.parse(run.stdout) as FilledRangeResult;
    expect(result.points.filter((p) => p.filled)).toEqual([
      expect.objectContaining({ t: SILENT.from, end: SILENT.to, n: null, filled: true }),
    ]);

    const csv = await query([...days, '--fill', 'previous', '--format', 'csv']);
    const records = parse<Record<string, string>>(csv.stdout, { columns: true });
    expect(records.map((r) => [r.local_time, r.filled])).toEqual(
      result.points.map((p) => [p.local, String(p.filled)]),
    );

    const table = await query([...days, '--fill', 'previous']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/2026-03-10T00:00:00\.000-07:00 .* yes/);
    expect(table.stdout).toContain('1 filled (previous), not data');
  });

  it('names the zone and local bounds of a window, and carries local days into candles', async () => {
    const window = await query([
      'window',
      '--series',
      SERIES,
      '--field',
      'speed',
      '--from',
      '2026-03-08T08:00:00Z',
      '--to',
      '2026-03-09T07:00:00Z',
      '--tz',
      LA,
      '--format',
      'json',
    ]);
    expect(window.code).toBe(0);
    expect(JSON.parse(window.stdout)).toMatchObject({
      tz: LA,
      local: { from: '2026-03-08T00:00:00.000-08:00', to: '2026-03-09T00:00:00.000-07:00' },
    });

    const candles = await query([
      'candles',
      '--series',
      SERIES,
      '--field',
      'speed',
      '--from',
      '2026-03-07T08:00:00Z',
      '--to',
      '2026-03-09T07:00:00Z',
      '--max-points',
      '3',
      '--tz',
      LA,
      '--format',
      'csv',
    ]);
    expect(candles.code).toBe(0);
    const rows = parse<Record<string, string>>(candles.stdout, { columns: true });
    expect(rows.map((r) => r.local_time)).toEqual([
      '2026-03-07T00:00:00.000-08:00',
      '2026-03-08T00:00:00.000-08:00',
    ]);
  });

  it('reads --from/--to without an offset as the zone’s wall time', async () => {
    const run = await query([
      'window',
      '--series',
      SERIES,
      '--field',
      'speed',
      '--from',
      '2026-03-08',
      '--to',
      '2026-03-09',
      '--tz',
      LA,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      fromMs: at('2026-03-08T08:00:00Z'),
      toMs: at('2026-03-09T07:00:00Z'),
    });
  });

  it('refuses an unknown zone with exit 2, before reading', async () => {
    const run = await query([...days.slice(0, -1), 'Mars/Base']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('tz: unknown time zone "Mars/Base"');
  });

  it('refuses an unknown fill mode as a usage error', async () => {
    const run = await query([...days, '--fill', 'zero']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/--fill/);
  });
});
