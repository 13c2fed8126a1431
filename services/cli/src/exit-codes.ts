/**
 * The exit codes of every command, so scripts can tell "fix the input" from "try again later"
 * from "the system failed". docs/querying.md ("Exit codes") lists them for users.
 */
export const EXIT = {
  ok: 0,
  /** Failed, or finished without a clean result: bad or refused lines, differences, lag. */
  failed: 1,
  /**
   * Refused: bad usage (an unknown flag, a missing or bad argument), a missing or malformed
   * variable, or a query, range, source or watermark that must change first; a retry cannot help.
   */
  refused: 2,
  /** Could not check: a dependency did not answer at start (its variable named); a retry may. */
  unreachable: 3,
  /**
   * `query points|candles|window` named a series the store has never held, or a field its series
   * has no data of in the range: a typo, told apart from a quiet range (a gap, exit 0).
   */
  unknownName: 4,
  /** Stopped by Ctrl-C after reporting what was done: not to be taken for a full run. */
  interrupted: 130,
} as const;
