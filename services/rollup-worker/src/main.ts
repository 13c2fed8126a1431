#!/usr/bin/env node
import { createLogger } from '@tickertape/logger';
import { startFailure, stopOnSignals } from '@tickertape/ops';
import { parseWorkerEnv } from './env.js';
import { startWorker } from './worker.js';

async function main(): Promise<void> {
  const env = parseWorkerEnv(process.env);
  const logger = createLogger({ name: `rollup-worker-${env.ROLLUP_LEVEL}`, level: env.LOG_LEVEL });
  const worker = await startWorker(env, logger);
  stopOnSignals(logger, () => worker.stop());
}

main().catch((err: unknown) => {
  // Before the logger exists (bad config) stderr is all there is; the message names the variable.
  process.stderr.write(startFailure('rollup-worker', err));
  process.exit(1);
});
