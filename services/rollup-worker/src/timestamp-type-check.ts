import { timestampTypeProblem, topicTimestampType } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import type { Kafka } from 'kafkajs';

/**
 * Warns, once at start, when the tick topic keeps the producers' timestamps (`CreateTime`): the
 * worker then judges lateness by clocks it does not control, which it cannot refuse to do (the
 * topic is the operator's), but must not do silently.
 */
export async function warnOnProducerClocks(
  kafka: Kafka,
  topic: string,
  brokers: readonly string[],
  logger: Logger,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const timestampType = await topicTimestampType(admin, topic);
    const problem = timestampTypeProblem(topic, timestampType, brokers);
    if (problem !== undefined)
      logger.warn({ topic, 'message.timestamp.type': timestampType }, problem);
  } finally {
    await admin.disconnect();
  }
}
