#!/usr/bin/env node
import { createLogger } from '@tickertape/logger';
import { startFailure, stopOnSignals } from '@tickertape/ops';
import { parseSchedulerEnv } from './env.js';
import { startScheduler } from './scheduler.js';

async function main(): Promise<void> {
  const env = parseSchedulerEnv(process.env);
  const logger = createLogger({ name: 'scheduler', level: env.LOG_LEVEL });
  const scheduler = await startScheduler(env, logger);
  stopOnSignals(logger, () => scheduler.stop());
}

main().catch((err: unknown) => {
  process.stderr.write(startFailure('scheduler', err));
  process.exit(1);
});
