import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@tickertape/errors';
import { dayOf, segmentId, type SegmentDocument, type SegmentPoint } from '@tickertape/segments';
import { DEFAULT_TICK_LIMITS, isSafeName, seriesKey } from '@tickertape/tick';
import { BSON } from 'mongodb';
import { parseWorkerEnv, SEGMENT_MAX_POINTS_LIMIT } from '../../src/env.js';

const base = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081/apis/ccompat/v7',
  MONGODB_URI: 'mongodb://127.0.0.1:27117',
};

describe('worker env', () => {
  it('takes a rollup level or `segments`', () => {
    expect(parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'hour' }).ROLLUP_LEVEL).toBe('hour');
    expect(parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'segments' }).ROLLUP_LEVEL).toBe('segments');
    expect(() => parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'week' })).toThrow(/ROLLUP_LEVEL/);
  });

  it('keeps the DLQ with a rollup level: `segments` cannot own it', () => {
    expect(parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'segments' }).DLQ_OWNER_LEVEL).toBe('minute');
    const parse = () =>
      parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'segments', DLQ_OWNER_LEVEL: 'segments' });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(/DLQ_OWNER_LEVEL/);
  });

  it('defaults to 500 points per segment and writes every point', () => {
    const env = parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'segments' });
    expect(env.SEGMENT_MAX_POINTS).toBe(500);
    expect([...env.SEGMENT_WRITE_ON_CHANGE]).toEqual([]);
  });

  it(`bounds SEGMENT_MAX_POINTS to 1..${SEGMENT_MAX_POINTS_LIMIT}, naming the variable`, () => {
    const parse = (value: string) =>
      parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'segments', SEGMENT_MAX_POINTS: value })
        .SEGMENT_MAX_POINTS;
    expect(parse('1')).toBe(1);
    expect(parse(String(SEGMENT_MAX_POINTS_LIMIT))).toBe(SEGMENT_MAX_POINTS_LIMIT);
    for (const bad of ['0', '-5', '2.5', 'many', String(SEGMENT_MAX_POINTS_LIMIT + 1)])
      expect(() => parse(bad)).toThrow(/SEGMENT_MAX_POINTS/);
  });

  it('flushes one partition at a time unless PARTITIONS_CONCURRENTLY says more (1..64)', () => {
    expect(parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'hour' }).PARTITIONS_CONCURRENTLY).toBe(1);
    const parse = (value: string) =>
      parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'hour', PARTITIONS_CONCURRENTLY: value })
        .PARTITIONS_CONCURRENTLY;
    expect(parse('4')).toBe(4);
    for (const bad of ['0', '65', '1.5', 'all'])
      expect(() => parse(bad)).toThrow(/PARTITIONS_CONCURRENTLY/);
  });

  it('reads SEGMENT_WRITE_ON_CHANGE as a comma-separated set of metrics', () => {
    const env = parseWorkerEnv({
      ...base,
      ROLLUP_LEVEL: 'segments',
      SEGMENT_WRITE_ON_CHANGE: ' door, valve.state ,,door',
    });
    expect([...env.SEGMENT_WRITE_ON_CHANGE].sort()).toEqual(['door', 'valve.state']);
  });

  it('reads TLS, SASL and registry credentials, and refuses half of a pair naming the other', () => {
    const secured = {
      ...base,
      ROLLUP_LEVEL: 'minute',
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'PLAIN',
      KAFKA_SASL_USERNAME: 'worker',
      KAFKA_SASL_PASSWORD: 'worker-sasl-password',
      SCHEMA_REGISTRY_USERNAME: 'registry-key',
      SCHEMA_REGISTRY_PASSWORD: 'registry-secret',
    };
    expect(parseWorkerEnv(secured)).toMatchObject({
      KAFKA_SSL: true,
      KAFKA_SASL_MECHANISM: 'plain',
      SCHEMA_REGISTRY_USERNAME: 'registry-key',
    });
    for (const [unset, named] of [
      ['KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD'],
      ['KAFKA_SASL_MECHANISM', 'KAFKA_SASL_MECHANISM'],
      ['SCHEMA_REGISTRY_USERNAME', 'SCHEMA_REGISTRY_USERNAME'],
    ] as const) {
      const parse = () => parseWorkerEnv({ ...secured, [unset]: '' });
      expect(parse).toThrow(ConfigError);
      expect(parse).toThrow(new RegExp(named));
      expect(parse).not.toThrow(/worker-sasl-password|registry-secret/);
    }
  });

  it('keeps the widest valid series under 16 MiB per segment at the largest SEGMENT_MAX_POINTS', () => {
    // 64 numeric fields (the tick limit), each named with 64 characters of 3 UTF-8 bytes.
    const names = Array.from(
      { length: DEFAULT_TICK_LIMITS.maxFields },
      (_, i) => String.fromCharCode(0x4e00 + i) + '\u20ac'.repeat(63),
    );
    expect(names.every((name) => isSafeName(name) && Buffer.byteLength(name) === 192)).toBe(true);
    const values = Object.fromEntries(names.map((name) => [name, Math.PI]));
    // The rest of a tick up to its 64 KiB limit goes to the metric, all escaped characters, so the
    // series key (in `series` and `_id`) is twice as long.
    const fieldBytes = names.reduce((sum, name) => sum + Buffer.byteLength(name) + 8, 0);
    const metric = ':'.repeat(DEFAULT_TICK_LIMITS.maxMessageBytes - fieldBytes);
    const series = seriesKey(metric, {});
    const start = Date.UTC(2026, 0, 1);
    const points: SegmentPoint[] = Array.from({ length: SEGMENT_MAX_POINTS_LIMIT }, (_, i) => ({
      t: start + i,
      v: values,
    }));
    const doc: SegmentDocument = {
      _id: segmentId(series, dayOf(start), 999, Number.MAX_SAFE_INTEGER),
      p: 999,
      series,
      metric,
      tags: {},
      day: dayOf(start),
      start,
      end: points.at(-1)!.t,
      prevEnd: start - 1,
      nextStart: Number.POSITIVE_INFINITY,
      n: points.length,
      t: points.map((p) => p.t),
      v: points.map((p) => p.v),
      last: points.at(-1)!,
      ap: Object.fromEntries(Array.from({ length: 64 }, (_, p) => [String(p), 2 ** 53 - 1])),
    };
    const bytes = BSON.calculateObjectSize(doc);
    expect(bytes).toBeLessThan(16 * 1024 * 1024);
    // …with room to spare: the comment in env.ts says 13 MB.
    expect(bytes).toBeLessThan(14 * 1000 * 1000);
  });
});
