#!/usr/bin/env node
import { createLogger } from '@tickertape/logger';
import { startFailure, stopOnSignals } from '@tickertape/ops';
import { loadApiEnv } from './env.js';
import { startApi } from './service.js';

async function main(): Promise<void> {
  const env = loadApiEnv();
  const logger = createLogger({ name: 'api', level: env.LOG_LEVEL });
  const api = await startApi(env, logger);
  stopOnSignals(logger, () => api.stop());
}

main().catch((err: unknown) => {
  process.stderr.write(startFailure('api', err));
  process.exit(1);
});
