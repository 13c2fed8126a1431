import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { runCli, tickertape } from '../support/cli.js';

describe('tickertape topics create', () => {
  let stack: TestStack;
  const made: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.open('cli-topics');
  });
  afterAll(async () => {
    // Created by the command, not by TestStack: removed here.
    if (made.length > 0) await (await stack.admin()).deleteTopics({ topics: made });
    await stack.close();
  });

  async function partitions(topic: string): Promise<number> {
    const { topics } = await (await stack.admin()).fetchTopicMetadata({ topics: [topic] });
    return topics[0]!.partitions.length;
  }

  it('creates the topic and its DLQ, then is idempotent and never repartitions', async () => {
    const topic = stack.name('raw');
    const dlq = stack.name('dlq');
    made.push(topic, dlq);
    const args = ['topics', 'create', '--topic', topic, '--partitions', '3', '--dlq-topic', dlq];

    const first = await tickertape(stack, args);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(new RegExp(`^${topic}\\s+3\\s+created$`, 'm'));
    expect(first.stdout).toMatch(new RegExp(`^${dlq}\\s+1\\s+created$`, 'm'));

    const again = await tickertape(stack, args);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(new RegExp(`^${topic}\\s+3\\s+exists$`, 'm'));
    expect(again.stdout).toMatch(new RegExp(`^${dlq}\\s+1\\s+exists$`, 'm'));

    const wider = await runCli(stack, [
      ...args.slice(0, 4),
      '--partitions',
      '5',
      '--dlq-topic',
      dlq,
    ]);
    expect(wider.code).toBe(0);
    expect(wider.stdout).toMatch(new RegExp(`^${topic}\\s+3\\s+exists, 5 asked: left as is$`, 'm'));
    expect(wider.stderr).toContain(`warning: ${topic} has 3 partitions, not 5`);
    expect(await partitions(topic)).toBe(3);
    expect(await partitions(dlq)).toBe(1);
  }, 90_000);
});
