export { REDACTED_KEYS, createLogger, type Logger, type LoggerOptions } from './create-logger.js';
export { redactUrl } from './redact-url.js';
