import { TickertapeError } from './tickertape-error.js';

export function isTickertapeError(err: unknown): err is TickertapeError {
  return err instanceof TickertapeError;
}

export function hasCode(err: unknown, code: string): err is TickertapeError {
  return isTickertapeError(err) && err.code === code;
}

/**
 * True when the error, or any error in its `cause` chain, says a retry may succeed. Errors from
 * libraries that mark themselves (kafkajs `retriable`, mongodb labels) count too.
 */
export function isRetriable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current instanceof TickertapeError) return current.retriable;
    if ((current as { retriable?: unknown }).retriable === true) return true;
    const labels = (current as { errorLabels?: unknown }).errorLabels;
    if (
      labels instanceof Set &&
      (labels.has('RetryableWriteError') || labels.has('TransientTransactionError'))
    ) {
      return true;
    }
    current = current.cause;
  }
  return false;
}

/** The one-line message for an error that ended a command or a start: ours are written for operators. */
export function describeError(err: unknown): string {
  if (isTickertapeError(err)) return `${err.code}: ${err.message}`;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
