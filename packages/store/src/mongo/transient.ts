import {
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  type MongoBulkWriteError,
  type WriteError,
} from 'mongodb';

/** E11000: the exactly-once guard's miss on an upsert, or a shell or copy already there. */
export const DUPLICATE_KEY = 11000;

/**
 * Server states that pass: a shutdown or restart (ShutdownInProgress 91, InterruptedAtShutdown
 * 11600), a primary stepping down or an election (11602, 189, 10107, 13435, 13436), a node
 * unreachable for a moment (6, 7, 89, 9001). A write failing with one of these may be sent again
 * — the guarded update makes a resend harmless — so the flush is retried, not given up.
 */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([
  6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436,
]);

export function isTransientMongoError(err: unknown): boolean {
  if (err instanceof MongoNetworkError || err instanceof MongoServerSelectionError) return true;
  if (!(err instanceof MongoServerError)) return false;
  if (typeof err.code === 'number' && TRANSIENT_CODES.has(err.code)) return true;
  if (err.hasErrorLabel('RetryableWriteError')) return true;
  // A bulk write that failed as a whole carries the command's failure (a closed connection,
  // say) as its `errorResponse`.
  const inner: unknown = err.errorResponse;
  return inner instanceof Error && inner !== err && isTransientMongoError(inner);
}

/**
 * The per-operation errors of a bulk write, as a list (the driver gives one error bare, several
 * as an array). Empty means the command failed as a whole: nothing says which writes landed.
 */
export function writeErrorsOf(err: MongoBulkWriteError): WriteError[] {
  const raw: unknown = err.writeErrors;
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) as WriteError[];
}
