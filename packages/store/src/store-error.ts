import { TickertapeError } from '@tickertape/errors';

export const StoreErrorCode = {
  WriteFailed: 'STORE_WRITE_FAILED',
  ConflictUnresolved: 'STORE_CONFLICT_UNRESOLVED',
  /** The server lacks a capability the call needs (`StoreCapabilities`); retrying cannot help. */
  Unsupported: 'STORE_UNSUPPORTED',
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
