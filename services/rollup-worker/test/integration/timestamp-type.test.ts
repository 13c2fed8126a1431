/**
 * The worker's start-up warning when the tick topic keeps the producers' timestamps: logged once
 * at warn, with the topic, the setting and the command that fixes it; nothing on a LogAppendTime
 * topic.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@tickertape/logger';
import { TestStack } from '@tickertape/testing';
import { valueSubject } from '@tickertape/tick';
import { Writable } from 'node:stream';
import { startWorker } from '../../src/worker.js';
import { Pipeline } from '../support/harness.js';

interface LogLine {
  level: string;
  msg: string;
  topic?: string;
  'message.timestamp.type'?: string;
}

/** Starts a minute worker on `topic`, stops it, and returns what it logged. */
async function startLog(pipeline: Pipeline, topic: string): Promise<LogLine[]> {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ name: 'timestamp-type', level: 'info', destination });
  const worker = await startWorker(
    pipeline.env('minute', { TOPIC: topic, LOG_LEVEL: 'info' }),
    logger,
  );
  await worker.stop();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

describe('the worker on a topic without LogAppendTime', () => {
  let stack: TestStack;
  let pipeline: Pipeline;

  beforeAll(async () => {
    stack = await TestStack.open('timestamp-type');
    pipeline = await Pipeline.create(stack, 1);
  });
  afterAll(() => stack.close());

  it('warns at start, with the topic, the setting and the fix', async () => {
    const topic = await stack.createTopic();
    stack.subject(valueSubject(topic));
    const warnings = (await startLog(pipeline, topic)).filter(
      (line) => line['message.timestamp.type'] !== undefined,
    );
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 'warn',
        topic,
        'message.timestamp.type': 'CreateTime',
        msg: expect.stringContaining(
          `--entity-name ${topic} --add-config message.timestamp.type=LogAppendTime`,
        ) as unknown,
      }),
    ]);
  }, 90_000);

  it('says nothing of it on a LogAppendTime topic', async () => {
    const lines = await startLog(pipeline, pipeline.topic);
    expect(lines.some((line) => line.msg === 'rollup worker started')).toBe(true);
    expect(
      lines.filter(
        (line) => line['message.timestamp.type'] !== undefined || /LogAppendTime/.test(line.msg),
      ),
    ).toEqual([]);
  }, 90_000);
});
