import { describeError } from '@tickertape/errors';
import { isBadQuery } from '@tickertape/query';
import { EXIT } from './exit-codes.js';

/**
 * How a command that threw ends: one line on stderr, and exit 2 for a refused query (bad range,
 * unknown level, too many series, over budget) so scripts can tell "fix the query" from "the
 * system failed" (1).
 */
export function describeFailure(err: unknown): { message: string; exitCode: number } {
  return {
    message: `tickertape: ${describeError(err)}\n`,
    exitCode: isBadQuery(err) ? EXIT.refused : EXIT.failed,
  };
}
