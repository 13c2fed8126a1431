import { ErrorCode } from './kinds.js';
import { TickertapeError } from './tickertape-error.js';

export class TimeoutError extends TickertapeError {
  override readonly name = 'TimeoutError';
  constructor(what: string, ms: number) {
    super(ErrorCode.Timeout, `timed out after ${ms} ms waiting for ${what}`, { retriable: true });
  }
}

/** Settles with `work`, or rejects with a TimeoutError after `ms`; the timer never leaks. */
export async function withDeadline<T>(
  ms: number,
  what: string,
  work: Promise<T> | (() => Promise<T>),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  try {
    return await Promise.race([typeof work === 'function' ? work() : work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
