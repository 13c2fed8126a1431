import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort, TestStack } from '@tickertape/testing';
import { valueSubject } from '@tickertape/tick';
import { tickertape, type CliRun } from '../support/cli.js';

const TS = Date.UTC(2026, 10, 21, 8);

/**
 * Whether `line` is a log line at error level or above, in either format the CLI writes: JSON
 * (`"level":"error"`, or pino's number 50) or pretty (`[08:00:00] ERROR: …`, maybe coloured).
 */
function isErrorLine(line: string): boolean {
  try {
    const { level } = JSON.parse(line) as { level?: unknown };
    return ['error', 'fatal', 50, 60].includes(level as string | number);
  } catch {
    // eslint-disable-next-line no-control-regex -- the colour codes a terminal gets
    return /^\[[\d:.]+\] (?:\x1b\[\d+m)?(?:ERROR|FATAL)\b/.test(line);
  }
}

function errorLines(run: CliRun): string[] {
  return `${run.stdout}\n${run.stderr}`.split('\n').filter(isErrorLine);
}

describe('the output of a healthy run', () => {
  let stack: TestStack;
  let deadBroker: string;

  beforeAll(async () => {
    stack = await TestStack.open('cli-quiet');
    // Listed before the real broker, it makes KafkaJS fail to connect and retry on the next one
    // in every client a command opens, every time: the self-resolving noise a test can provoke
    // without restarting the shared broker (a coordinator loading happens only after a start).
    deadBroker = `127.0.0.1:${await freePort()}`;
  });
  afterAll(() => stack.close());

  async function freshTopic(partitions: number): Promise<string> {
    const topic = await stack.createTopic({ partitions });
    stack.subject(valueSubject(topic));
    return topic;
  }

  async function recordsOn(topic: string): Promise<number> {
    const offsets = await (await stack.admin()).fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  }

  const ticks = Array.from({ length: 20 }, (_, i) =>
    JSON.stringify({
      metric: 'traffic',
      tags: { sensor: String(i % 4) },
      ts: TS + i * 1000,
      fields: { speed: 50 + i },
    }),
  ).join('\n');

  it('publish to a new topic prints its answer and no error line', async () => {
    const topic = await freshTopic(4);
    const run = await tickertape(stack, ['publish', '--topic', topic], `${ticks}\n`);

    expect(errorLines(run)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^published 20 ticks to ${topic} \\(4 series,`, 'm'));
    expect(await recordsOn(topic)).toBe(20);
  }, 90_000);

  it('publish keeps connection retries that succeed out of the error level, in JSON', async () => {
    const topic = await freshTopic(4);
    const brokers = `${deadBroker},${stack.env.KAFKA_BROKERS.join(',')}`;
    const run = await tickertape(stack, ['publish', '--topic', topic], `${ticks}\n`, {
      KAFKA_BROKERS: brokers,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
    });

    expect(errorLines(run)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^published 20 ticks to ${topic} `, 'm'));
    expect(await recordsOn(topic)).toBe(20);
    // The retries happened, and are there for whoever asks for debug.
    const retried = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: string; component?: string; msg: string })
      .filter((line) => line.component === 'kafkajs' && line.msg.includes(deadBroker));
    expect(retried.length).toBeGreaterThan(0);
    expect(new Set(retried.map((line) => line.level))).toEqual(new Set(['debug']));
  }, 90_000);

  it('loadgen does the same, its log lines readable by a person when asked', async () => {
    const topic = await freshTopic(2);
    const brokers = `${deadBroker},${stack.env.KAFKA_BROKERS.join(',')}`;
    const args = ['loadgen', '--profile', 'stocks', '--rate', '40', '--duration', '1s'];
    const run = await tickertape(stack, [...args, '--series', '3', '--topic', topic], '', {
      KAFKA_BROKERS: brokers,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'pretty',
    });

    expect(errorLines(run)).toEqual([]);
    expect(run.code).toBe(0);
    const sent = /^loadgen stocks: (\d+) ticks sent to (\S+) in /m.exec(run.stdout);
    expect(sent?.[2]).toBe(topic);
    expect(Number(sent?.[1])).toBeGreaterThan(0);
    expect(await recordsOn(topic)).toBe(Number(sent?.[1]));
    expect(run.stderr).toMatch(
      new RegExp(
        `^\\[\\d\\d:\\d\\d:\\d\\d\\] DEBUG: Connection error: connect ECONNREFUSED ${deadBroker}`,
        'm',
      ),
    );
    expect(run.stderr).not.toMatch(/^\{"level"/m);
  }, 90_000);
});
