import type { Logger } from '@tickertape/logger';
import { Kafka, logLevel, type KafkaConfig, type LogEntry } from 'kafkajs';

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

const PINO_LEVEL: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** kafkajs logs through our pino logger, as a child named `kafkajs`, never to the console. */
function kafkaLogCreator(logger: Logger) {
  const child = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _name, ...extra } = log;
      child[PINO_LEVEL[level] ?? 'info']({ namespace, ...extra }, message);
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
