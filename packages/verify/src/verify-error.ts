import { TickertapeError } from '@tickertape/errors';

export const VerifyErrorCode = {
  NotCaughtUp: 'VERIFY_NOT_CAUGHT_UP',
} as const;

/**
 * A consumer group has not committed up to the records the checker read: its buckets may still
 * be missing ticks that are merely in flight. Retriable: wait and check again.
 */
export class NotCaughtUpError extends TickertapeError {
  override readonly name = 'NotCaughtUpError';
  constructor(readonly behind: { groupId: string; lag: number }[]) {
    super(
      VerifyErrorCode.NotCaughtUp,
      `consumer groups not caught up with the records read: ${behind
        .map((group) => `${group.groupId} ${group.lag} behind`)
        .join(', ')}`,
      { retriable: true },
    );
  }
}
