import { timestampTypeProblem, topicTimestampType } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import type { Kafka } from 'kafkajs';

/**
 * Warns, once at start, when the tick topic keeps the producers' timestamps (`CreateTime`): the
 * worker then judges lateness by clocks it does not control, which it cannot refuse to do (the
 * topic is the operator's), but must not do silently. A check that cannot be made (no
 * DescribeConfigs, a broker gone) is logged at debug and never stops the worker.
 */
export async function warnOnProducerClocks(
  kafka: Kafka,
  topic: string,
  brokers: readonly string[],
  logger: Logger,
): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const timestampType = await topicTimestampType(admin, topic);
    const problem = timestampTypeProblem(topic, timestampType, brokers);
    if (problem !== undefined)
      logger.warn({ topic, 'message.timestamp.type': timestampType }, problem);
  } catch (err) {
    logger.debug({ err, topic }, 'could not read the topic timestamp type');
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
