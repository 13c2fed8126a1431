#!/usr/bin/env node
import { isTickertapeError } from '@tickertape/errors';
import { createLogger } from '@tickertape/logger';
import { parseWorkerEnv } from './env.js';
import { startWorker } from './worker.js';

async function main(): Promise<void> {
  const env = parseWorkerEnv(process.env);
  const logger = createLogger({ name: `rollup-worker-${env.ROLLUP_LEVEL}`, level: env.LOG_LEVEL });
  const worker = await startWorker(env, logger);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    worker.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'unclean shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  // Before the logger exists (bad config) stderr is all there is; the message names the variable.
  const text = isTickertapeError(err)
    ? `${err.code}: ${err.message}`
    : err instanceof Error
      ? (err.stack ?? err.message)
      : String(err);
  process.stderr.write(`rollup-worker: ${text}\n`);
  process.exit(1);
});
