import { TickertapeError } from '@tickertape/errors';

/**
 * Prometheus' error types (its HTTP API's `errorType`), as its web/api/v1 maps them: `bad_data`
 * (400) is what is wrong before evaluating — parameters, syntax, types, PromQL we do not
 * evaluate — and `execution` (422) what goes wrong while evaluating against the data: too many
 * samples ("would load too many samples"), or data the expression cannot take (duplicate series
 * in a match group, one label set twice in a result).
 */
export const PromErrorType = {
  BadData: 'bad_data',
  Execution: 'execution',
} as const;
export type PromErrorType = (typeof PromErrorType)[keyof typeof PromErrorType];

export const PromQLErrorCode = {
  Syntax: 'PROMQL_SYNTAX',
  Unsupported: 'PROMQL_UNSUPPORTED',
  BadParameter: 'PROMQL_BAD_PARAMETER',
  AmbiguousName: 'PROMQL_AMBIGUOUS_NAME',
  TooLarge: 'PROMQL_TOO_LARGE',
  /** The data makes a valid expression fail (Prometheus' engine errors): the same query may work on other data. */
  DataConflict: 'PROMQL_DATA_CONFLICT',
  /** Over a bound of the request's shape (length, depth, terms, selectors, match[]): fix the request. */
  BoundExceeded: 'PROMQL_BOUND_EXCEEDED',
} as const;
export type PromQLErrorCode = (typeof PromQLErrorCode)[keyof typeof PromQLErrorCode];

const TYPES: Record<PromQLErrorCode, PromErrorType> = {
  PROMQL_SYNTAX: PromErrorType.BadData,
  PROMQL_UNSUPPORTED: PromErrorType.BadData,
  PROMQL_BAD_PARAMETER: PromErrorType.BadData,
  PROMQL_AMBIGUOUS_NAME: PromErrorType.Execution,
  PROMQL_TOO_LARGE: PromErrorType.Execution,
  PROMQL_DATA_CONFLICT: PromErrorType.Execution,
  PROMQL_BOUND_EXCEEDED: PromErrorType.BadData,
};

/** A PromQL query or parameter we refuse; never retriable (the same request fails again). */
export class PromQLError extends TickertapeError {
  override readonly name = 'PromQLError';
  readonly errorType: PromErrorType;

  constructor(code: PromQLErrorCode, message: string) {
    super(code, message, { retriable: false });
    this.errorType = TYPES[code];
  }
}

export function isPromQLError(err: unknown): err is PromQLError {
  return err instanceof PromQLError;
}
