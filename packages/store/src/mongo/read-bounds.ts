import { MongoServerError } from 'mongodb';
import { ReadTimeoutError, abortReasonOf, stopIfAborted } from '../store-error.js';

/** What bounds each read of a MongoBucketReads: its caller's signal, the server's time budget. */
export interface ReadBounds {
  signal?: AbortSignal;
  /** `maxTimeMS` on every read; none when absent. */
  maxTimeMS?: number;
}

/** The driver options that carry `bounds` (both are options of find, aggregate and count). */
export function boundOptions(bounds: ReadBounds): { signal?: AbortSignal; maxTimeMS?: number } {
  return {
    ...(bounds.signal === undefined ? {} : { signal: bounds.signal }),
    ...(bounds.maxTimeMS === undefined ? {} : { maxTimeMS: bounds.maxTimeMS }),
  };
}

/** MongoDB's and FerretDB's error code for a command past its `maxTimeMS`. */
const MAX_TIME_MS_EXPIRED = 50;

/**
 * What a failed read throws: why the reads stop when the caller's signal aborted (the driver
 * rejects with the signal's reason, or closed the socket under the read), a ReadTimeoutError for
 * the server's MaxTimeMSExpired, the driver's error otherwise.
 */
export function readFailure(err: unknown, bounds: ReadBounds): unknown {
  if (bounds.signal?.aborted === true) return abortReasonOf(bounds.signal);
  if (err instanceof MongoServerError && err.code === MAX_TIME_MS_EXPIRED)
    return new ReadTimeoutError(
      `a database read ran past its ${bounds.maxTimeMS ?? '?'} ms budget (maxTimeMS)`,
      bounds.maxTimeMS ?? 0,
      err,
    );
  return err;
}

/** `read` under `bounds`: not started once the signal has aborted, its failure classified. */
export async function boundRead<T>(bounds: ReadBounds, read: () => Promise<T>): Promise<T> {
  stopIfAborted(bounds.signal);
  try {
    return await read();
  } catch (err) {
    throw readFailure(err, bounds);
  }
}
