/**
 * The size a backfill computes for a tick without the registry is the size of the message the
 * registry client writes, so OVERSIZED is decided the same way with and without Kafka.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import {
  checkEncodedSize,
  DEFAULT_TICK_LIMITS,
  encodedTickBytes,
  isTickRejected,
  TickCodec,
  type Tick,
  type TickSchemaVersion,
} from '../../src/index.js';

const ticks: Tick[] = [
  { metric: 'm', tags: {}, ts: 0, fields: { v: 1 }, strings: {} },
  {
    metric: 'traffic.speed',
    tags: { segment: 'A1-north', lane: '2' },
    ts: Date.UTC(2026, 10, 21, 15, 30, 5, 250),
    fields: { speed: 87.5, travelTime: 42 },
    strings: { weather: 'rain' },
    source: 'tickertape-backfill',
  },
  {
    metric: 'wide',
    tags: { k: 'é'.repeat(2000) },
    ts: Date.UTC(2030, 0, 1),
    fields: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i / 3])),
    strings: { note: 'x'.repeat(62_000) },
  },
];

describe('encodedTickBytes', () => {
  let stack: TestStack;
  const codecs = new Map<TickSchemaVersion, TickCodec>();

  beforeAll(async () => {
    stack = await TestStack.open('tick-size');
    const subject = stack.subject();
    for (const version of [1, 2] as const) {
      codecs.set(
        version,
        await TickCodec.register(stack.registry, {
          registry: { url: stack.env.SCHEMA_REGISTRY_URL },
          subject,
          version,
          limits: { maxMessageBytes: 1 << 20 },
        }),
      );
    }
  });
  afterAll(() => stack.close());

  it.each([1, 2] as const)(
    'equals the length of the v%p message the codec writes',
    async (version) => {
      for (const tick of ticks) {
        const message = await codecs.get(version)!.encode(tick);
        expect(encodedTickBytes(tick, version)).toBe(message.length);
      }
    },
  );

  it('refuses what a worker dead-letters as OVERSIZED, and only that', () => {
    const [small, , large] = ticks;
    expect(() => checkEncodedSize(small!, DEFAULT_TICK_LIMITS)).not.toThrow();
    let caught: unknown;
    try {
      checkEncodedSize(large!, DEFAULT_TICK_LIMITS);
    } catch (err) {
      caught = err;
    }
    expect(isTickRejected(caught, 'OVERSIZED')).toBe(true);
    expect(String(caught)).toMatch(/bytes encoded, at most 65536/);
  });
});
