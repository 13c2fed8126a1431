import { TickertapeError } from '@tickertape/errors';

export const SegmentErrorCode = {
  /** Another writer (a zombie after a rebalance, or a stale cache) got there first. */
  Conflict: 'SEGMENT_CONFLICT',
} as const;

/** The flush was not (fully) applied; retrying it from its first offset is safe. */
export class SegmentConflictError extends TickertapeError {
  override readonly name = 'SegmentConflictError';

  constructor(message: string, cause?: unknown) {
    super(SegmentErrorCode.Conflict, message, { retriable: true, cause });
  }
}
