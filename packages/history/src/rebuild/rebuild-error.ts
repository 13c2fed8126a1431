import { TickertapeError } from '@tickertape/errors';

export const RebuildErrorCode = {
  /** --from/--to not on the level's slot boundaries, or an empty range. */
  Misaligned: 'REBUILD_MISALIGNED',
  /** Part of the range is not final for the rebuilt level or its source level. */
  NotFinal: 'REBUILD_NOT_FINAL',
  /** The topic no longer holds every record that may carry a tick of the range. */
  TopicTruncated: 'REBUILD_TOPIC_TRUNCATED',
  /** A source that cannot make the level, or a source level partition that is gone. */
  BadSource: 'REBUILD_BAD_SOURCE',
  /** Another run of the same rebuild is alive. */
  Running: 'REBUILD_RUNNING',
  /** The rebuilt range would hold no tick where the live one holds some. */
  EmptySource: 'REBUILD_EMPTY_SOURCE',
} as const;

/**
 * A rebuild refused or stopped before its swap: the live data is as it was. Never retriable as
 * such — the range, the source or the watermark must change first.
 */
export class RebuildError extends TickertapeError {
  override readonly name = 'RebuildError';
}
