import { describe, expect, it } from '@jest/globals';
import { Type } from 'avsc';
import {
  DEFAULT_SUBJECT,
  TICK_SCHEMA_V1,
  TICK_SCHEMA_V2,
  TICK_SCHEMAS,
  valueSubject,
} from '../../src/index.js';

const v1 = Type.forSchema(TICK_SCHEMA_V1);
const v2 = Type.forSchema(TICK_SCHEMA_V2);

const tick = {
  metric: 'traffic.speed',
  tags: { segment: 'A1-north', lane: '2' },
  ts: Date.UTC(2026, 10, 21, 15, 30, 5, 250),
  fields: { speed: 87.5, travelTime: 42 },
  strings: { weather: 'rain' },
};

describe('the tick schemas', () => {
  it('are record dev.tickertape.Tick, v2 adding only an optional source', () => {
    expect(v1.name).toBe('dev.tickertape.Tick');
    expect(v2.name).toBe('dev.tickertape.Tick');
    expect(TICK_SCHEMA_V1.fields.map((f) => f.name)).toEqual([
      'metric',
      'tags',
      'ts',
      'fields',
      'strings',
    ]);
    expect(TICK_SCHEMA_V2.fields.slice(0, -1)).toEqual(TICK_SCHEMA_V1.fields);
    expect(TICK_SCHEMA_V2.fields.at(-1)).toMatchObject({
      name: 'source',
      type: ['null', 'string'],
      default: null,
    });
    expect(TICK_SCHEMA_V1.fields.find((f) => f.name === 'ts')?.type).toEqual({
      type: 'long',
      logicalType: 'timestamp-millis',
    });
    expect(TICK_SCHEMAS).toEqual({ 1: TICK_SCHEMA_V1, 2: TICK_SCHEMA_V2 });
  });

  it('are frozen', () => {
    expect(Object.isFrozen(TICK_SCHEMA_V2)).toBe(true);
    expect(Object.isFrozen(TICK_SCHEMA_V2.fields)).toBe(true);
    expect(Object.isFrozen(TICK_SCHEMA_V1.fields[1]!.type)).toBe(true);
  });

  it('round-trip a tick, ts as a plain number of ms', () => {
    // toEqual against a number also shows ts is not a Long or a Date.
    const back: unknown = v1.fromBuffer(v1.toBuffer(tick));
    expect(back).toEqual(tick);
    const withSource = { ...tick, source: 'loadgen-1' };
    const backWithSource: unknown = v2.fromBuffer(v2.toBuffer(withSource));
    expect(backWithSource).toEqual(withSource);
  });

  it('carry NaN and Infinity (validation, not Avro, refuses them)', () => {
    const bad = { ...tick, fields: { speed: Number.NaN, max: Number.POSITIVE_INFINITY } };
    const back: unknown = v1.fromBuffer(v1.toBuffer(bad));
    expect(back).toEqual(bad);
  });

  it('v2 reads v1 data (BACKWARD): source takes its default, null', () => {
    const resolver = v2.createResolver(v1);
    expect(v2.fromBuffer(v1.toBuffer(tick), resolver)).toEqual({ ...tick, source: null });
  });

  it('v1 reads v2 data (FORWARD): source is skipped', () => {
    const resolver = v1.createResolver(v2);
    const bytes = v2.toBuffer({ ...tick, source: 'loadgen-1' });
    expect(v1.fromBuffer(bytes, resolver)).toEqual(tick);
    // Without resolution the trailing union is left over: resolution is what makes this work.
    expect(() => {
      v1.fromBuffer(bytes);
    }).toThrow();
  });

  it('strings defaults to {} for a writer that lacks it', () => {
    // A writer from before `strings` existed: the default is what lets v1 readers take it.
    const bare = Type.forSchema({
      ...TICK_SCHEMA_V1,
      fields: TICK_SCHEMA_V1.fields.filter((f) => f.name !== 'strings'),
    });
    const { strings: _strings, ...withoutStrings } = tick;
    const read: unknown = v1.fromBuffer(bare.toBuffer(withoutStrings), v1.createResolver(bare));
    expect(read).toEqual({ ...withoutStrings, strings: {} });
  });

  it('live under raw-ticks-value by default, topic + "-value" otherwise', () => {
    expect(DEFAULT_SUBJECT).toBe('raw-ticks-value');
    expect(valueSubject('ticks-staging')).toBe('ticks-staging-value');
  });
});
