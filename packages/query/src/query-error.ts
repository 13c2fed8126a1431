import { TickertapeError, isTickertapeError } from '@tickertape/errors';

/**
 * Why a query was refused before it touched the database. Every one is the caller's to fix, so
 * none is retriable, and the API answers each with a 4xx carrying the message.
 */
export const QueryErrorCode = {
  InvalidRange: 'QUERY_INVALID_RANGE',
  /** A time none of the accepted forms reads (time-argument.ts). */
  InvalidTime: 'QUERY_INVALID_TIME',
  /** A tag filter that is not `key=value`, or one key with two values (tag-argument.ts). */
  InvalidTag: 'QUERY_INVALID_TAG',
  UnknownLevel: 'QUERY_UNKNOWN_LEVEL',
  InvalidSeries: 'QUERY_INVALID_SERIES',
  InvalidName: 'QUERY_INVALID_NAME',
  TooManySeries: 'QUERY_TOO_MANY_SERIES',
  TooManyPoints: 'QUERY_TOO_MANY_POINTS',
  ReadBudgetExceeded: 'QUERY_READ_BUDGET_EXCEEDED',
  NoResolution: 'QUERY_NO_RESOLUTION',
  LevelSkipped: 'QUERY_LEVEL_SKIPPED',
  InvalidTimeZone: 'QUERY_INVALID_TIME_ZONE',
  InvalidQuantile: 'QUERY_INVALID_QUANTILE',
  /** A series or field the store does not hold: a typo, never answered as a gap (unknown-names.ts). */
  UnknownName: 'QUERY_UNKNOWN_NAME',
} as const;
export type QueryErrorCode = (typeof QueryErrorCode)[keyof typeof QueryErrorCode];

export class QueryError extends TickertapeError {
  override readonly name = 'QueryError';

  constructor(code: QueryErrorCode, message: string) {
    super(code, message, { retriable: false });
  }
}

const CODES = new Set<string>(Object.values(QueryErrorCode));

/** A refusal caused by the request itself (the API's 400), as opposed to a failing dependency. */
export function isBadQuery(err: unknown): err is TickertapeError {
  return isTickertapeError(err) && CODES.has(err.code);
}
