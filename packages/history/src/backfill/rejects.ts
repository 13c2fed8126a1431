import { BadLineError, InputErrorCode, isTickRejected } from '@tickertape/tick';

/** The lines of one reason: how many, and which (the first few, or all of them). */
export interface RejectGroup {
  reason: string;
  count: number;
  /** Line numbers in input order: the first `keep`, or every one when all are kept. */
  lines: number[];
  /** The message of the first line with this reason, as an example. */
  example: string;
  /** Every line's message, when all are kept (`--verbose`). */
  messages?: string[];
}

/** How many line numbers a reason keeps when not all are asked for. */
export const FIRST_LINES = 10;

/**
 * The input lines a backfill refused, by reason: the dead-letter reasons a worker gives
 * (DECODE_ERROR, INVALID_NAME, TIMESTAMP_OUT_OF_RANGE, OVERSIZED…), or BAD_LINE for a line that
 * is not a tick at all. Memory stays bounded for a file of bad lines unless every line is asked for.
 */
export class Rejects {
  private readonly groups = new Map<string, RejectGroup>();
  total = 0;

  constructor(private readonly keepAll: boolean) {}

  add(line: number, err: unknown): void {
    const reason = isTickRejected(err)
      ? err.reason
      : err instanceof BadLineError
        ? InputErrorCode.BadLine
        : undefined;
    if (reason === undefined) throw err;
    const message = (err as Error).message;
    this.total += 1;
    let group = this.groups.get(reason);
    if (!group) {
      group = { reason, count: 0, lines: [], example: message };
      if (this.keepAll) group.messages = [];
      this.groups.set(reason, group);
    }
    group.count += 1;
    if (this.keepAll || group.lines.length < FIRST_LINES) group.lines.push(line);
    group.messages?.push(message);
  }

  /** Most frequent reason first. */
  list(): RejectGroup[] {
    return [...this.groups.values()].sort(
      (a, b) => b.count - a.count || a.reason.localeCompare(b.reason),
    );
  }
}
