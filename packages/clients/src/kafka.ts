import type { Logger } from '@tickertape/logger';
import { Kafka, logLevel, type KafkaConfig, type LogEntry } from 'kafkajs';
import { kafkaLineLevel } from './kafka-log-level.js';

export interface KafkaOptions {
  brokers: readonly string[];
  clientId: string;
  logger: Logger;
  /** TLS and SASL pass straight through to kafkajs. */
  ssl?: KafkaConfig['ssl'];
  sasl?: KafkaConfig['sasl'];
  connectionTimeoutMs?: number;
  retry?: KafkaConfig['retry'];
}

/**
 * kafkajs logs through our pino logger, as a child named `kafkajs`, never to the console; what
 * resolves itself is demoted to debug (kafkaLineLevel) so a healthy run prints no error.
 */
function kafkaLogCreator(logger: Logger) {
  const child = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _name, ...fields } = log;
      child[kafkaLineLevel({ namespace, level, message, fields })](
        { namespace, ...fields },
        message,
      );
    };
}

export function createKafka(options: KafkaOptions): Kafka {
  return new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    ssl: options.ssl,
    sasl: options.sasl,
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    retry: options.retry,
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(options.logger),
  });
}
