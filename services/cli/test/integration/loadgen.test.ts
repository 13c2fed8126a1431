import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CONDITIONS, stockSymbol } from '@tickertape/producer';
import { TestStack } from '@tickertape/testing';
import { seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import { readTopic, runCli, tickertape } from '../support/cli.js';

describe('tickertape loadgen', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.open('cli-loadgen');
  });
  afterAll(() => stack.close());

  async function published(topic: string): Promise<Tick[]> {
    const codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: valueSubject(topic),
    });
    const records = await readTopic(stack, topic);
    const ticks: Tick[] = [];
    for (const record of records) {
      const tick = await codec.decode(record.value!);
      expect(record.key?.toString()).toBe(seriesKey(tick.metric, tick.tags));
      ticks.push(tick);
    }
    return ticks;
  }

  it('publishes about rate × duration traffic readings, one series per sensor', async () => {
    const topic = await stack.createTopic({ partitions: 3 });
    stack.subject(valueSubject(topic));
    const started = Date.now();
    const run = await tickertape(stack, [
      'loadgen',
      '--profile',
      'traffic',
      '--rate',
      '50',
      '--duration',
      '2s',
      '--series',
      '5',
      '--seed',
      '7',
      '--topic',
      topic,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^loadgen traffic: \\d+ ticks sent to ${topic} in `, 'm'),
    );
    expect(run.stdout).toContain('5 series, seed 7');

    const ticks = await published(topic);
    // 50/s for 2 s; generous, since the count is the point, not the speed.
    expect(ticks.length).toBeGreaterThanOrEqual(80);
    expect(ticks.length).toBeLessThanOrEqual(120);
    const sensors = new Set(ticks.map((t) => t.tags.sensor));
    expect([...sensors].sort()).toEqual(['900000', '900001', '900002', '900003', '900004']);
    for (const tick of ticks) {
      expect(tick.metric).toBe('traffic');
      expect(tick.tags.segment).toMatch(/^I\d+_mile\d+$/);
      expect(Object.keys(tick.fields).sort()).toEqual(['speed', 'travel_time']);
      expect(CONDITIONS).toContain(tick.strings.conditions);
      expect(tick.source).toBe('tickertape-loadgen/traffic');
      // Event time is the wall clock at generation.
      expect(tick.ts).toBeGreaterThanOrEqual(started);
      expect(tick.ts).toBeLessThanOrEqual(Date.now());
    }
    // The summary's per-series table adds up to what landed.
    const counted = [...run.stdout.matchAll(/^traffic\|\S+\s+(\d+)$/gm)].map((m) => Number(m[1]));
    expect(counted).toHaveLength(5);
    expect(counted.reduce((a, b) => a + b, 0)).toBe(ticks.length);
  }, 90_000);

  it('publishes stock ticks for the symbols asked', async () => {
    const topic = await stack.createTopic({ partitions: 2 });
    stack.subject(valueSubject(topic));
    const run = await runCli(stack, [
      'loadgen',
      '--profile',
      'stocks',
      '--rate',
      '40',
      '--duration',
      '2s',
      '--series',
      '4',
      '--topic',
      topic,
      '--no-progress',
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const ticks = await published(topic);
    expect(ticks.length).toBeGreaterThanOrEqual(64);
    expect(ticks.length).toBeLessThanOrEqual(96);
    expect(new Set(ticks.map((t) => t.tags.symbol))).toEqual(
      new Set([0, 1, 2, 3].map(stockSymbol)),
    );
    for (const tick of ticks) {
      expect(tick.metric).toBe('stock.tick');
      expect(tick.fields.price).toBeGreaterThan(0);
      expect(Number.isInteger(tick.fields.volume)).toBe(true);
    }
  }, 90_000);
});
