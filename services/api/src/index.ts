export { buildApp, type ApiApp, type BuildAppOptions } from './app.js';
export { ApiErrorCode, type ErrorBody } from './api-error.js';
export { apiEnvSchema, loadApiEnv, parseApiEnv, type ApiEnv } from './env.js';
export { kafkaLagSource, type KafkaLagOptions, type LagSource } from './lag.js';
export type { FinalitySource } from './routes/level-routes.js';
export { startApi, type ApiHandle } from './service.js';
