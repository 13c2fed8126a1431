import { describe, expect, it } from '@jest/globals';
import { isRunId } from '@tickertape/store';
import { BadLineError, isTickRejected, seriesKey } from '@tickertape/tick';
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { STORES } from '@tickertape/topology';
import { FinalRanges, isFinalAt } from '../../src/backfill/final-ranges.js';
import { openBackfillInput } from '../../src/backfill/input-file.js';
import { backfillLines, storesFor, type BackfillRules } from '../../src/backfill/lines.js';
import { Rejects } from '../../src/backfill/rejects.js';
import {
  backfillRunId,
  foldInputOf,
  isBackfillSource,
  SOURCE_PARTITION_BASE,
  sourcePartition,
} from '../../src/backfill/source.js';
import { admitTick, DEFAULT_RETENTION_MS, pastRetention } from '../../src/backfill/time-rules.js';

const M = 60_000;
const H = 60 * M;
const D = 24 * H;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const rules: BackfillRules = {
  stores: STORES,
  nowMs: NOW,
  maxFutureMs: 5 * M,
  retentionMs: DEFAULT_RETENTION_MS,
};

describe('backfill source identity', () => {
  it('numbers a partition of its own from the digest: above every Kafka partition, a safe integer', () => {
    for (const digest of ['0'.repeat(64), 'f'.repeat(64), sha('a'), sha('b')]) {
      const p = sourcePartition(digest);
      expect(Number.isSafeInteger(p)).toBe(true);
      expect(p).toBeGreaterThanOrEqual(SOURCE_PARTITION_BASE);
      expect(isBackfillSource(p)).toBe(true);
    }
    expect(sourcePartition('0'.repeat(64))).toBe(1_000_000);
    expect(sourcePartition('f'.repeat(64))).toBe(1_000_000 + 2 ** 40 - 1);
    expect(sourcePartition(sha('a'))).toBe(sourcePartition(sha('a')));
    expect(sourcePartition(sha('a'))).not.toBe(sourcePartition(sha('b')));
    expect(isBackfillSource(5)).toBe(false);
    expect(() => sourcePartition('xyz')).toThrow(/sha256/);
  });

  it('makes a line the fold input at the source partition, its number the offset', () => {
    const tick = {
      metric: 'traffic',
      tags: { sensor: '7' },
      ts: NOW - D,
      fields: { speed: 61 },
      strings: { cond: 'rain' },
    };
    expect(foldInputOf(tick, 1_000_042, 17)).toEqual({
      seriesKey: seriesKey('traffic', { sensor: '7' }),
      metric: 'traffic',
      tags: { sensor: '7' },
      ts: NOW - D,
      fields: { speed: 61 },
      strings: { cond: 'rain' },
      kafkaPartition: 1_000_042,
      offset: 17,
    });
  });

  it('names runs a shadow collection can carry, by digest, level and start', () => {
    const id = backfillRunId(sha('a'), 'minute', NOW);
    expect(isRunId(id)).toBe(true);
    expect(id).toBe(`backfill-${sha('a').slice(0, 12)}-minute-20261121T120000`);
  });
});

describe('backfill time rules', () => {
  it('refuses a store only when the collection the tick lands in ended longer ago than its retention', () => {
    const today = Date.UTC(2026, 10, 21);
    // The minute partition (a day) of 8 days ago ended 7 days ago at midnight: past 7 d.
    expect(pastRetention('minute', today - 8 * D + H, NOW, 7 * D)).toBe(true);
    // Seven days ago: its day ended 6 days 12 h ago.
    expect(pastRetention('minute', today - 7 * D + H, NOW, 7 * D)).toBe(false);
    expect(pastRetention('segments', today - 8 * D + H, NOW, 7 * D)).toBe(true);
    // Hour partitions are months: August ended on Sep 1st, 81 days before NOW.
    expect(pastRetention('hour', Date.UTC(2026, 7, 3), NOW, 90 * D)).toBe(false);
    expect(pastRetention('hour', Date.UTC(2026, 6, 31), NOW, 90 * D)).toBe(true);
    // Day partitions are years.
    expect(pastRetention('day', Date.UTC(2020, 5, 1), NOW, 5 * 365 * D)).toBe(true);
    expect(pastRetention('day', Date.UTC(2021, 5, 1), NOW, 5 * 365 * D)).toBe(false);
  });

  it('gives a 30-day-old tick to hour and day, and refuses it for minute and segments', () => {
    expect(storesFor(NOW - 30 * D, rules)).toEqual({
      accepted: ['hour', 'day'],
      refused: ['minute', 'segments'],
    });
    expect(storesFor(NOW - 5 * D, rules)).toEqual({
      accepted: ['minute', 'hour', 'day', 'segments'],
      refused: [],
    });
    expect(storesFor(NOW - 30 * D, { ...rules, stores: ['minute', 'day'] })).toEqual({
      accepted: ['day'],
      refused: ['minute'],
    });
  });

  it('rejects what a worker dead-letters, with its reason, and ticks past the future bound', () => {
    const good = { metric: 'm', tags: {}, ts: NOW - 400 * D, fields: { v: 1 }, strings: {} };
    expect(admitTick(good, NOW, 5 * M)).toMatchObject({ ts: NOW - 400 * D });
    expect(admitTick({ ...good, ts: NOW + 5 * M }, NOW, 5 * M).ts).toBe(NOW + 5 * M);
    const reasonOf = (tick: unknown) => {
      try {
        admitTick(tick as typeof good, NOW, 5 * M);
      } catch (err) {
        return isTickRejected(err) ? err.reason : String(err);
      }
      return 'admitted';
    };
    expect(reasonOf({ ...good, ts: NOW + 5 * M + 1 })).toBe('TIMESTAMP_OUT_OF_RANGE');
    expect(reasonOf({ ...good, ts: -1 })).toBe('TIMESTAMP_OUT_OF_RANGE');
    expect(reasonOf({ ...good, fields: {} })).toBe('NO_FIELDS');
    expect(reasonOf({ ...good, metric: ' ' })).toBe('MISSING_METRIC');
    expect(reasonOf({ ...good, fields: { 'a.b': 1 } })).toBe('INVALID_NAME');
    expect(reasonOf({ ...good, fields: { v: 'x' } })).toBe('DECODE_ERROR');
    expect(reasonOf({ ...good, fields: { v: Infinity } })).toBe('INVALID_VALUE');
    expect(reasonOf({ ...good, strings: { s: 'x'.repeat(70_000) } })).toBe('OVERSIZED');
  });
});

describe('backfill lines', () => {
  it('admits, rejects and splits stores line by line', async () => {
    const text = [
      'metric,ts,tag:s,field:v',
      `m,${NOW - D},a,1`,
      '',
      `m,${NOW - 30 * D},a,2`,
      'm,yesterday,a,3',
      `m,${NOW + H},a,4`,
      `m,${NOW - D},a,`,
    ].join('\n');
    const out = [];
    for await (const line of backfillLines(Readable.from([text]), 'csv', rules)) out.push(line);
    expect(
      out.map((line) => ('tick' in line ? [line.number, line.accepted] : line.number)),
    ).toEqual([[2, ['minute', 'hour', 'day', 'segments']], [4, ['hour', 'day']], 5, 6, 7]);
    const reasons = out
      .filter((line) => 'error' in line)
      .map((line) => {
        const err = (line as { error: unknown }).error;
        return isTickRejected(err) ? err.reason : (err as Error).name;
      });
    expect(reasons).toEqual(['BadLineError', 'TIMESTAMP_OUT_OF_RANGE', 'NO_FIELDS']);
  });

  it('groups rejects by reason, keeping the first line numbers unless all are asked for', () => {
    const rejects = new Rejects(false);
    for (let line = 1; line <= 25; line++) rejects.add(line, new BadLineError(`bad ${line}`));
    rejects.add(30, admitError());
    expect(rejects.total).toBe(26);
    const [bad, future] = rejects.list();
    expect(bad).toEqual({
      reason: 'BAD_LINE',
      count: 25,
      lines: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      example: 'bad 1',
    });
    expect(future).toMatchObject({ reason: 'TIMESTAMP_OUT_OF_RANGE', count: 1, lines: [30] });
    const all = new Rejects(true);
    for (let line = 1; line <= 25; line++) all.add(line, new BadLineError(`bad ${line}`));
    expect(all.list()[0]!.lines).toHaveLength(25);
    expect(all.list()[0]!.messages![24]).toBe('bad 25');
    expect(() => all.add(1, new Error('a bug'))).toThrow('a bug');
  });
});

function admitError(): unknown {
  try {
    admitTick({ metric: 'm', tags: {}, ts: NOW + D, fields: { v: 1 }, strings: {} }, NOW, 0);
  } catch (err) {
    return err;
  }
  throw new Error('admitted');
}

describe('backfill final ranges', () => {
  it('judges a slot final by its level watermark', () => {
    const marks = { minute: NOW - 6 * H, hour: NOW - 7 * H };
    expect(isFinalAt('minute', NOW - 6 * H - 1, marks)).toBe(true);
    expect(isFinalAt('minute', NOW - 6 * H - M + 1, marks)).toBe(true);
    expect(isFinalAt('minute', NOW - 6 * H, marks)).toBe(false);
    expect(isFinalAt('hour', NOW - 7 * H - 1, marks)).toBe(true);
    expect(isFinalAt('day', NOW - 100 * D, marks)).toBe(false);
  });

  it('keeps one range per live partition, from the first final slot to the end of the last', () => {
    const ranges = new FinalRanges();
    const day = Date.UTC(2026, 10, 10);
    ranges.add('minute', day + 10 * H + 30_000);
    ranges.add('minute', day + 2 * H);
    ranges.add('minute', day + D + 5 * M);
    ranges.add('hour', day + 3 * H + 1);
    expect(ranges.list()).toEqual([
      { level: 'hour', live: 'rollup_hour_202611', fromMs: day + 3 * H, toMs: day + 4 * H },
      {
        level: 'minute',
        live: 'rollup_minute_20261110',
        fromMs: day + 2 * H,
        toMs: day + 10 * H + M,
      },
      {
        level: 'minute',
        live: 'rollup_minute_20261111',
        fromMs: day + D + 5 * M,
        toMs: day + D + 6 * M,
      },
    ]);
  });
});

describe('backfill input', () => {
  it('knows a file and the same bytes on stdin by one digest and line count, and rereads them', async () => {
    const text = 'metric,ts,field:v\nm,1,1\r\nm,2,2';
    const dir = await mkdtemp(join(tmpdir(), 'backfill-test-'));
    const path = join(dir, 'ticks.csv');
    await writeFile(path, text);
    const file = await openBackfillInput(path, Readable.from([]));
    const piped = await openBackfillInput(
      '-',
      Readable.from([Buffer.from(text.slice(0, 5)), Buffer.from(text.slice(5))]),
    );
    try {
      expect(file.sha256).toBe(sha(text));
      expect(piped.sha256).toBe(sha(text));
      expect([file.lines, piped.lines, file.bytes]).toEqual([3, 3, text.length]);
      let again = '';
      for await (const chunk of await piped.read()) again += String(chunk);
      expect(again).toBe(text);
      await writeFile(path, `${text}\n`);
      await expect(file.read()).rejects.toThrow(/changed while it was being backfilled/);
    } finally {
      await piped.release();
      await file.release();
    }
    await expect(openBackfillInput(join(dir, 'missing.csv'), Readable.from([]))).rejects.toThrow(
      /cannot read/,
    );
  });
});
