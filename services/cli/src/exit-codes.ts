/**
 * The exit codes of every command, so scripts can tell "fix the input" from "the system failed".
 * Commander's own usage errors exit 1.
 */
export const EXIT = {
  ok: 0,
  /** Failed, or finished without a clean result: bad or refused lines, differences, lag. */
  failed: 1,
  /** Refused: the query, range, source or watermark must change first; a retry cannot help. */
  refused: 2,
  /**
   * `query points|candles|window` named a series the store has never held, or a field its series
   * has no data of in the range: a typo, told apart from a quiet range (a gap, exit 0).
   */
  unknownName: 4,
  /** Stopped by Ctrl-C after reporting what was done: not to be taken for a full run. */
  interrupted: 130,
} as const;
