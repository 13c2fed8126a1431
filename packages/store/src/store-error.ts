import { TickertapeError } from '@tickertape/errors';

export const StoreErrorCode = {
  WriteFailed: 'STORE_WRITE_FAILED',
  ConflictUnresolved: 'STORE_CONFLICT_UNRESOLVED',
} as const;

/** A flush that could not be written; the worker must not commit its offsets. */
export class StoreWriteError extends TickertapeError {
  override readonly name = 'StoreWriteError';
}
