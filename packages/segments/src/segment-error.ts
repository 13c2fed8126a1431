import { TickertapeError } from '@tickertape/errors';

export const SegmentErrorCode = {
  /** Another writer (a zombie after a rebalance, or a stale cache) got there first. */
  Conflict: 'SEGMENT_CONFLICT',
  /** A raw read would examine more segment documents than its limit allows: the caller's to narrow. */
  ReadBudgetExceeded: 'SEGMENT_READ_BUDGET_EXCEEDED',
} as const;

/** The flush was not (fully) applied; retrying it from its first offset is safe. */
export class SegmentConflictError extends TickertapeError {
  override readonly name = 'SegmentConflictError';

  constructor(message: string, cause?: unknown) {
    super(SegmentErrorCode.Conflict, message, { retriable: true, cause });
  }
}

/** A raw read refused before reading: its range holds more segments than the limit. */
export class SegmentBudgetError extends TickertapeError {
  override readonly name = 'SegmentBudgetError';

  constructor(message: string) {
    super(SegmentErrorCode.ReadBudgetExceeded, message, { retriable: false });
  }
}

export function isSegmentBudgetError(err: unknown): err is SegmentBudgetError {
  return err instanceof SegmentBudgetError;
}
