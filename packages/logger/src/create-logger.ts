import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export type { Logger } from 'pino';

/**
 * Keys whose values never reach a log line, at the top level or one object down (pino's
 * redaction paths do not recurse, so the common nestings are listed).
 */
export const REDACTED_KEYS = [
  'password',
  'secret',
  'token',
  'apiKey',
  'authorization',
  'sasl',
  // A kafkajs `ssl` object holds the client's private key.
  'ssl',
  'credentials',
  // The secret variables themselves, should a config object be logged.
  'API_TOKENS',
  'KAFKA_SASL_PASSWORD',
  'SCHEMA_REGISTRY_PASSWORD',
] as const;

const REDACT_PATHS = [
  ...REDACTED_KEYS,
  ...REDACTED_KEYS.map((key) => `*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
];

export interface LoggerOptions {
  /** Service or component name, on every line. */
  name: string;
  level?: LevelWithSilent;
  /** Where lines go; stdout when absent. Tests pass a stream to read them back. */
  destination?: DestinationStream;
}

/** The one logger factory: JSON lines, ISO timestamps, secrets censored. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
