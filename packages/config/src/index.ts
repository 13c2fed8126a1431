export { loadEnv, parseEnv, type EnvSource } from './parse-env.js';
export {
  durationMs,
  flag,
  httpUrl,
  kafkaBrokers,
  logLevel,
  mongoDatabase,
  mongoUri,
  port,
  positiveInt,
  redisUrl,
  stackEnvSchema,
  stackShape,
  type StackEnv,
} from './fields.js';
