import type { Logger } from '@tickertape/logger';
import { PromErrorType, cut, isPromQLError } from '@tickertape/promql';
import { QueryErrorCode, isBadQuery } from '@tickertape/query';
import { isReadAborted, isReadTimeout } from '@tickertape/store';
import { readTimeoutMessage } from '../request-reads.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** Prometheus' success envelope; `warnings` say what the answer left out (Grafana shows them). */
export const success = <T>(data: T, warnings?: readonly string[]) =>
  warnings && warnings.length > 0
    ? { status: 'success' as const, data, warnings }
    : { status: 'success' as const, data };

export interface PromErrorBody {
  status: 'error';
  errorType: string;
  error: string;
}

/** Longest `error` sent: messages quote the request, and a hostile one is 900 KB (issue 37). */
const MAX_ERROR_CHARS = 1000;

export const promError = (errorType: string, error: string): PromErrorBody => ({
  status: 'error',
  errorType,
  error: cut(error, MAX_ERROR_CHARS),
});

/** The reader's refusals that mean "too big" rather than "wrong": Prometheus' 422 `execution`. */
const TOO_BIG = new Set<string>([
  QueryErrorCode.ReadBudgetExceeded,
  QueryErrorCode.TooManyPoints,
  QueryErrorCode.TooManySeries,
]);

/**
 * Errors under /prometheus in Prometheus' shape (`{"status":"error","errorType":…,"error":…}`):
 * what we do not evaluate and bad parameters are 400 `bad_data`, queries over budget 422
 * `execution`, anything else a 500 `internal` that shows no internals.
 */
export function promErrorHandler(logger: Logger) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isPromQLError(err))
      return reply
        .code(err.errorType === PromErrorType.Execution ? 422 : 400)
        .send(promError(err.errorType, err.message));
    if (isBadQuery(err)) {
      const tooBig = TOO_BIG.has(err.code);
      return reply
        .code(tooBig ? 422 : 400)
        .send(promError(tooBig ? PromErrorType.Execution : PromErrorType.BadData, err.message));
    }
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500)
      return reply.code(err.statusCode).send(promError(PromErrorType.BadData, err.message));
    // Prometheus' own answers to a query past its timeout and to a client that went away.
    if (isReadTimeout(err))
      return reply.code(503).send(promError('timeout', readTimeoutMessage(err.budgetMs)));
    if (isReadAborted(err)) return reply.code(499).send(promError('canceled', err.message));
    logger.error({ err, requestId: request.id }, 'prometheus query failed');
    return reply
      .code(500)
      .send(promError('internal', `the query failed; see the API's log for request ${request.id}`));
  };
}
