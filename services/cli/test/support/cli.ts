import type { TestStack } from '@tickertape/testing';
import { runProcess, waitFor } from '@tickertape/testing';
import { CommanderError } from 'commander';
import type { IHeaders } from 'kafkajs';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseCliEnv } from '../../src/env.js';
import { describeFailure } from '../../src/failure.js';
import { buildProgram } from '../../src/program.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const cliDir = fileURLToPath(new URL('../..', import.meta.url));

/** The stack's four addresses as the environment strings the CLI reads. */
export function stackEnv(stack: TestStack): Record<string, string> {
  return {
    KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
    SCHEMA_REGISTRY_URL: stack.env.SCHEMA_REGISTRY_URL,
    MONGODB_URI: stack.env.MONGODB_URI,
    REDIS_URL: stack.env.REDIS_URL,
    LOG_LEVEL: 'warn',
  };
}

/**
 * Runs the real program in-process: the same commands and output as the binary, faster.
 * `now` fixes the clock relative times are read from.
 */
export function runCli(
  stack: TestStack,
  args: string[],
  stdin = '',
  now?: () => number,
): Promise<CliRun> {
  return runCliWithEnv(stack, stackEnv(stack), args, stdin, now);
}

/** `runCli` with `env` as the whole environment, instead of the stack's four addresses. */
export async function runCliWithEnv(
  stack: TestStack,
  env: Record<string, string>,
  args: string[],
  stdin = '',
  now?: () => number,
): Promise<CliRun> {
  const run: CliRun = { code: 0, stdout: '', stderr: '' };
  const program = buildProgram(
    {
      loadEnv: () => parseCliEnv(env),
      makeLogger: () => stack.logger,
      stdin: Readable.from([stdin]),
      stdout: (text) => (run.stdout += text),
      stderr: (text) => (run.stderr += text),
      // stderr as the binary has it when redirected: progress only with --progress.
      progress: new Writable({
        write(chunk: Buffer, _encoding, done) {
          run.stderr += chunk.toString();
          done();
        },
      }),
      setExitCode: (code) => (run.code = code),
      ...(now === undefined ? {} : { now }),
    },
    { exitOverride: true },
  );
  try {
    await program.parseAsync(['node', 'tickertape', ...args]);
  } catch (err) {
    if (err instanceof CommanderError) {
      run.code = err.exitCode;
    } else {
      const failure = describeFailure(err);
      run.stderr += failure.message;
      run.code = failure.exitCode;
    }
  }
  return run;
}

/**
 * Runs the `tickertape` entry point from source as a user would, stdin included; `env` adds to or
 * overrides the stack's variables.
 */
export async function tickertape(
  stack: TestStack,
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): Promise<CliRun> {
  const { code, stdout, stderr } = await runProcess(
    'pnpm',
    ['exec', 'tsx', '--conditions=source', 'src/main.ts', ...args],
    {
      cwd: cliDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...stackEnv(stack),
        ...env,
      },
      stdin,
    },
  );
  return { code: code ?? -1, stdout, stderr };
}

export interface TopicRecord {
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/** Every record on `topic` now, read with a throwaway consumer group. */
export async function readTopic(stack: TestStack, topic: string): Promise<TopicRecord[]> {
  const admin = await stack.admin();
  const offsets = await admin.fetchTopicOffsets(topic);
  const total = offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  if (total === 0) return [];
  const consumer = stack.kafka.consumer({ groupId: stack.name('reader') });
  const records: TopicRecord[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: ({ partition, message }) => {
        records.push({
          partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers: message.headers ?? {},
        });
        return Promise.resolve();
      },
    });
    await waitFor(() => records.length >= total, {
      description: `${total} records on ${topic}`,
      timeoutMs: 30_000,
    });
  } finally {
    await consumer.disconnect();
  }
  return records;
}
