import { TickertapeError } from '@tickertape/errors';
import { TickErrorCode } from './codes.js';

/**
 * Why a message goes to the dead-letter topic. The DLQ record carries one of these, so the set
 * is closed: consumers, the redrive command and dashboards switch on it.
 */
export const TICK_REJECTION_REASONS = [
  'BAD_MAGIC_BYTE',
  'UNKNOWN_SCHEMA',
  'DECODE_ERROR',
  'MISSING_METRIC',
  'INVALID_VALUE',
  'TOO_MANY_FIELDS',
  'TOO_MANY_TAGS',
  'OVERSIZED',
  'TIMESTAMP_OUT_OF_RANGE',
  'NO_FIELDS',
  'INVALID_NAME',
] as const;
export type TickRejectionReason = (typeof TICK_REJECTION_REASONS)[number];

/**
 * The message can never become a valid tick: retrying cannot help, it belongs in the DLQ with
 * its `reason`. Registry outages are *not* rejections (see RegistryRequestError).
 */
export class TickRejectedError extends TickertapeError {
  override readonly name = 'TickRejectedError';
  readonly reason: TickRejectionReason;

  constructor(reason: TickRejectionReason, detail: string, options: { cause?: unknown } = {}) {
    super(TickErrorCode.Rejected, `${reason}: ${detail}`, {
      retriable: false,
      cause: options.cause,
    });
    this.reason = reason;
  }
}

/** True for a rejected tick, and, when `reason` is given, for that reason only. */
export function isTickRejected(
  err: unknown,
  reason?: TickRejectionReason,
): err is TickRejectedError {
  return err instanceof TickRejectedError && (reason === undefined || err.reason === reason);
}
