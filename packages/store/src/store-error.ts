import { TickertapeError, hasCode } from '@tickertape/errors';

export const StoreErrorCode = {
  WriteFailed: 'STORE_WRITE_FAILED',
  ConflictUnresolved: 'STORE_CONFLICT_UNRESOLVED',
  /** The server lacks a capability the call needs (`StoreCapabilities`); retrying cannot help. */
  Unsupported: 'STORE_UNSUPPORTED',
  /** The caller stopped its reads (a client that went away): nothing more was read. */
  ReadAborted: 'STORE_READ_ABORTED',
  /** A read ran past its time budget (`maxTimeMS` on the server, or the caller's own deadline). */
  ReadTimeout: 'STORE_READ_TIMEOUT',
} as const;

/** A flush that could not be written; the worker must not commit its offsets. */
export class StoreWriteError extends TickertapeError {
  override readonly name = 'StoreWriteError';
}

/** A call the store's server cannot serve: `capability` names the `StoreCapabilities` flag that is off. */
export class StoreUnsupportedError extends TickertapeError {
  override readonly name = 'StoreUnsupportedError';

  constructor(
    readonly capability: 'shells',
    server: string,
  ) {
    super(
      StoreErrorCode.Unsupported,
      `${server} cannot serve this: capability ${capability} is off`,
      {
        retriable: false,
      },
    );
  }
}

/**
 * Reads stopped by their caller's signal (`RollupStore.withSignal`). Retriable: the same reads
 * asked again may well answer; nobody is left to answer this time.
 */
export class ReadAbortedError extends TickertapeError {
  override readonly name = 'ReadAbortedError';

  constructor(message: string, cause?: unknown) {
    super(StoreErrorCode.ReadAborted, message, {
      retriable: true,
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/**
 * A read past its budget: the server's `maxTimeMS` (MaxTimeMSExpired), or the caller's deadline
 * aborting its signal. Retriable: a quieter moment or a narrower query may answer in time.
 */
export class ReadTimeoutError extends TickertapeError {
  override readonly name = 'ReadTimeoutError';

  constructor(
    message: string,
    /** The budget that ran out, ms. */
    readonly budgetMs: number,
    cause?: unknown,
  ) {
    super(StoreErrorCode.ReadTimeout, message, {
      retriable: true,
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

export function isReadAborted(err: unknown): err is ReadAbortedError {
  return hasCode(err, StoreErrorCode.ReadAborted);
}

export function isReadTimeout(err: unknown): err is ReadTimeoutError {
  return hasCode(err, StoreErrorCode.ReadTimeout);
}

/**
 * Why reads under `signal` stop, as a typed error: the signal's reason when the caller aborted
 * with one of ours (a ReadTimeoutError from its deadline), a ReadAbortedError otherwise.
 */
export function abortReasonOf(signal: AbortSignal): ReadAbortedError | ReadTimeoutError {
  const reason: unknown = signal.reason;
  if (isReadAborted(reason) || isReadTimeout(reason)) return reason;
  return new ReadAbortedError('the reads were cancelled by their caller', reason);
}

/** Throws why the reads stop if `signal` has aborted: no read starts after that. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortReasonOf(signal);
}
