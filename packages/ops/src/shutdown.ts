import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits 0 (1 if stopping failed). Each
 * service passes the function that closes its consumers, workers and clients in order.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'unclean shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** The message a process prints when it cannot start: ours name the variable or dependency. */
export function startFailure(service: string, err: unknown): string {
  return `${service}: ${describeError(err)}\n`;
}
