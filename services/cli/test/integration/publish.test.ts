import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTopic, runCli, tickertape, type TopicRecord } from '../support/cli.js';

const TS = Date.UTC(2026, 10, 21, 8);

describe('tickertape publish', () => {
  let stack: TestStack;
  let dir: string;

  beforeAll(async () => {
    stack = await TestStack.open('cli-publish');
    dir = await mkdtemp(join(tmpdir(), 'tickertape-publish-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await stack.close();
  });

  /** A topic of its own, its subject cleaned up, and a codec to read it back. */
  async function topicWithCodec(partitions: number) {
    // As `topics create` makes it: a topic that keeps producers' timestamps draws a warning.
    const topic = await stack.createTopic({
      partitions,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    const subject = stack.subject(valueSubject(topic));
    const codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject,
    });
    return { topic, codec };
  }

  /** Decodes every record and checks its key is its series key; keyed by series. */
  async function decodeAll(codec: TickCodec, records: TopicRecord[]) {
    const bySeries = new Map<string, { partitions: Set<number>; ticks: Tick[] }>();
    for (const record of records) {
      const tick = await codec.decode(record.value!);
      const key = seriesKey(tick.metric, tick.tags);
      expect(record.key?.toString()).toBe(key);
      const entry = bySeries.get(key) ?? { partitions: new Set(), ticks: [] };
      entry.partitions.add(record.partition);
      entry.ticks.push(tick);
      bySeries.set(key, entry);
    }
    return bySeries;
  }

  it('publishes JSON lines from stdin, reporting bad lines by number and exiting 1', async () => {
    const { topic, codec } = await topicWithCodec(3);
    const lines = [
      JSON.stringify({ metric: 'traffic', tags: { sensor: 'a' }, ts: TS, fields: { speed: 60 } }),
      JSON.stringify({
        metric: 'traffic',
        tags: { sensor: 'b' },
        ts: '2026-11-21T08:00:01Z',
        fields: { speed: 55 },
        strings: { conditions: 'rain' },
      }),
      JSON.stringify({ metric: 'traffic', tags: { sensor: 'a' }, ts: TS + 2000, fields: {} }),
      '',
      '{"metric": "traffic", "ts": ',
      JSON.stringify({
        metric: 'traffic',
        tags: { sensor: 'a' },
        ts: TS + 3000,
        fields: { speed: 61 },
      }),
    ];
    const run = await tickertape(stack, ['publish', '--topic', topic], `${lines.join('\n')}\n`);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('line 3: NO_FIELDS: no numeric field');
    expect(run.stderr).toMatch(/line 5: not JSON/);
    expect(run.stderr).not.toMatch(/line [1246]:/);
    expect(run.stdout).toMatch(new RegExp(`^published 3 ticks to ${topic} \\(2 series,`, 'm'));
    expect(run.stdout).toContain('2 bad lines skipped');

    const bySeries = await decodeAll(codec, await readTopic(stack, topic));
    const a = bySeries.get('traffic|sensor=a')!;
    const b = bySeries.get('traffic|sensor=b')!;
    expect(a.partitions.size).toBe(1);
    expect(a.ticks.map((t) => [t.ts, t.fields.speed])).toEqual([
      [TS, 60],
      [TS + 3000, 61],
    ]);
    expect(b.ticks).toEqual([
      {
        metric: 'traffic',
        tags: { sensor: 'b' },
        ts: TS + 1000,
        fields: { speed: 55 },
        strings: { conditions: 'rain' },
        source: 'tickertape-publish',
      },
    ]);
  }, 90_000);

  it('publishes a CSV file by its header, one partition per series', async () => {
    const { topic, codec } = await topicWithCodec(4);
    const file = join(dir, 'traffic.csv');
    const rows = [
      'metric,ts,tag:sensor,tag:segment,field:speed,field:travel_time,string:conditions',
      ...Array.from({ length: 12 }, (_, i) =>
        [
          'traffic',
          TS + i * 1000,
          String(900_000 + (i % 3)),
          `I80_mile${(i % 3) * 3}`,
          50 + i,
          60 + i,
          i % 2 === 0 ? 'clear' : '"fog, light"',
        ].join(','),
      ),
      'traffic,2026-11-21T08:05:00Z,900001,I80_mile3,fast,70,clear',
    ];
    await writeFile(file, `${rows.join('\r\n')}\r\n`);
    const run = await runCli(stack, ['publish', '--topic', topic, file]);

    expect(run.code).toBe(1);
    expect(run.stderr).toBe('line 14: field:speed "fast" is not a number\n');
    expect(run.stdout).toMatch(/^published 12 ticks .*\(3 series,/m);

    const bySeries = await decodeAll(codec, await readTopic(stack, topic));
    expect([...bySeries.keys()].sort()).toEqual([
      'traffic|segment=I80_mile0,sensor=900000',
      'traffic|segment=I80_mile3,sensor=900001',
      'traffic|segment=I80_mile6,sensor=900002',
    ]);
    for (const { partitions, ticks } of bySeries.values()) {
      expect(partitions.size).toBe(1);
      expect(ticks).toHaveLength(4);
    }
    const first = bySeries.get('traffic|segment=I80_mile0,sensor=900000')!.ticks[0];
    expect(first).toEqual({
      metric: 'traffic',
      tags: { sensor: '900000', segment: 'I80_mile0' },
      ts: TS,
      fields: { speed: 50, travel_time: 60 },
      strings: { conditions: 'clear' },
      source: 'tickertape-publish',
    });
    expect(bySeries.get('traffic|segment=I80_mile3,sensor=900001')!.ticks[0]!.strings).toEqual({
      conditions: 'fog, light',
    });
  }, 90_000);

  it('refuses a reserved name as reserved, from JSON lines and from a CSV header', async () => {
    const { topic } = await topicWithCodec(1);
    const json = await runCli(
      stack,
      ['publish', '--topic', topic],
      [
        `{"metric":"m","ts":${TS},"fields":{"__proto__":1,"v":2}}`,
        `{"metric":"m","ts":${TS},"tags":{"constructor":"x"},"fields":{"v":2}}`,
      ].join('\n'),
    );
    expect(json.code).toBe(1);
    expect(json.stderr).toContain(
      'line 1: INVALID_NAME: fields name "__proto__" is a reserved name',
    );
    expect(json.stdout).toMatch(/^published 1 tick /m);

    const csv = await runCli(
      stack,
      ['publish', '--format', 'csv', '--topic', topic],
      `metric,ts,tag:__proto__,field:v\nm,${TS},x,1\n`,
    );
    expect(csv.code).toBe(1);
    expect(csv.stderr).toContain('line 2: INVALID_NAME: tags name "__proto__" is a reserved name');
  }, 60_000);

  it('stops on an unusable CSV header, and on a topic that does not exist', async () => {
    const { topic } = await topicWithCodec(1);
    const header = await runCli(
      stack,
      ['publish', '--format', 'csv', '--topic', topic],
      'metric,when,field:v\n',
    );
    expect(header.code).toBe(1);
    expect(header.stderr).toContain('BAD_INPUT: the CSV header has an unknown column "when"');

    const missing = stack.name('missing');
    const run = await runCli(stack, ['publish', '--topic', missing], '');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`TOPIC_MISSING: topic ${missing} does not exist`);
    expect(run.stderr).toContain('tickertape topics create');
  }, 60_000);
});
