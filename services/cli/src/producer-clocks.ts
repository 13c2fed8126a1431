import { timestampTypeProblem, topicTimestampType } from '@tickertape/clients';
import type { Admin } from 'kafkajs';
import { requireStack, type CliEnv } from './env.js';

/**
 * What is wrong with the tick topic's `message.timestamp.type`, with the command that fixes it,
 * or undefined when it is LogAppendTime. Asked by the commands operators and producers run
 * first (`topics create`, `publish`, `groups`), which say it on stderr.
 */
export async function producerClocksProblem(
  admin: Admin,
  env: CliEnv,
  topic: string,
): Promise<string | undefined> {
  const { KAFKA_BROKERS } = requireStack(env, 'KAFKA_BROKERS');
  return timestampTypeProblem(topic, await topicTimestampType(admin, topic), KAFKA_BROKERS);
}

/** The problem as the line the CLI writes on stderr; empty when there is none. */
export function warningLine(problem: string | undefined): string {
  return problem === undefined ? '' : `tickertape: warning: ${problem}\n`;
}
