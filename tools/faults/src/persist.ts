import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Retries `work` every second until it succeeds or `ms` have passed: during a fault a single try
 * (an offset rewind while the broker restarts, say) may fail where the next one succeeds.
 */
export async function persist<T>(
  ms: number,
  what: string,
  work: () => Promise<T>,
  logger: Logger,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      logger.debug({ err: describeError(err) }, `${what} failed; trying again`);
      await delay(1000);
    }
  }
}
