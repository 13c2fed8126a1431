import { cut } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { isBadQuery, isUnknownName, type UnknownNames } from '@tickertape/query';
import { isReadAborted, isReadTimeout } from '@tickertape/store';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { FORBIDDEN, isScopeError } from './token-scope.js';
import { readTimeoutMessage } from './request-reads.js';
import type { RouteMethods } from './route-methods.js';
import { promError } from './prometheus/envelope.js';
import { setSecurityHeaders } from './security-headers.js';

/**
 * The `error` of the API's own refusals. A refused query answers with the reader's code instead
 * (`QUERY_INVALID_RANGE`, `QUERY_READ_BUDGET_EXCEEDED`…), so callers branch on one code per
 * cause, whichever layer found it.
 */
export const ApiErrorCode = {
  Unauthorized: 'unauthorized',
  /** A metric outside the token's scope (token-scope.ts). */
  Forbidden: FORBIDDEN,
  InvalidRequest: 'invalid_request',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  Internal: 'internal_error',
} as const;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

export interface ErrorBody {
  error: string;
  message: string;
  /** On 500s: the id of the log line holding the details, which the body never shows. */
  requestId?: string;
}

export interface UnknownBody extends ErrorBody {
  unknown: UnknownNames;
}

/** Longest `message` sent: messages quote the request, whose parts may be any length (issue 37). */
const MAX_MESSAGE_CHARS = 1000;

export function errorBody(error: string, message: string, requestId?: string): ErrorBody {
  const said = cut(message, MAX_MESSAGE_CHARS);
  return requestId === undefined ? { error, message: said } : { error, message: said, requestId };
}

/** `from: not an instant…; limit: Too big…`: each zod issue with the parameter it is about. */
function validationMessage(
  issues: readonly { instancePath: string; message?: string }[],
  context: string | undefined,
): string {
  return issues
    .map((issue) => {
      const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${where === '' ? (context ?? 'request') : where}: ${issue.message ?? 'invalid'}`;
    })
    .join('; ');
}

/**
 * Every error a route or hook throws ends here: the request's own faults are 4xx with a message
 * that says what to change; anything else is a 500 that shows no internals (messages of driver
 * errors carry hosts and queries) and points to the log line instead.
 */
export function apiErrorHandler(logger: Logger) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(err))
      return reply
        .code(400)
        .send(
          errorBody(
            ApiErrorCode.InvalidRequest,
            validationMessage(err.validation, err.validationContext),
          ),
        );
    // A misspelt series or field: named with the nearest known names, never a 200 with one gap.
    if (isUnknownName(err))
      return reply
        .code(404)
        .send({ ...errorBody(err.code, err.message), unknown: err.unknown } satisfies UnknownBody);
    if (isBadQuery(err)) return reply.code(400).send(errorBody(err.code, err.message));
    if (isScopeError(err))
      return reply.code(403).send(errorBody(ApiErrorCode.Forbidden, err.message));
    // Past API_READ_TIMEOUT_MS (the API's deadline, or the server's maxTimeMS): retriable.
    if (isReadTimeout(err))
      return reply.code(503).send(errorBody(err.code, readTimeoutMessage(err.budgetMs)));
    // The client went away (counted and logged then): nginx's 499, which nobody will read.
    if (isReadAborted(err)) return reply.code(499).send(errorBody(err.code, err.message));
    const status = err.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own refusals (a malformed URL, a body on a GET): their messages name no secret.
      return reply.code(status).send(errorBody(ApiErrorCode.InvalidRequest, err.message));
    }
    logger.error({ err, requestId: request.id, route: request.routeOptions.url }, 'request failed');
    return reply
      .code(500)
      .send(
        errorBody(
          ApiErrorCode.Internal,
          'the request failed on our side; the log holds the details under this requestId',
          request.id,
        ),
      );
  };
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  const path = cut(request.url.split('?')[0] ?? '');
  return reply
    .code(404)
    .send(
      errorBody(
        ApiErrorCode.NotFound,
        `no route ${request.method} ${path}; the routes are listed at /openapi.json`,
      ),
    );
}

/**
 * 405 with the Allow header for a path served with other methods (`TRACE /health`), before the
 * 404 handler of whatever scope the path falls in; as a root `onRequest` hook it runs before the
 * token is checked, and says only what /openapi.json says.
 */
export function methodNotAllowed(known: RouteMethods) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.is404) return;
    const path = request.url.split('?')[0] ?? '';
    const allowed = known.allowed(path);
    if (allowed.length === 0) return;
    return reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send(
        errorBody(
          ApiErrorCode.MethodNotAllowed,
          `${request.method} is not served on ${cut(path)}; it answers ${allowed.join(', ')}`,
        ),
      );
  };
}

/**
 * Fastify's refusals made before routing (`frameworkErrors`: a malformed URL, a path parameter
 * past maxParamLength), which it would otherwise answer itself, raw: the URL whole in the
 * message, none of the security headers. Answered like any other refusal.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  setSecurityHeaders(request, reply);
  const path = cut(request.url.split('?')[0] ?? '');
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `a part of the path ${path} is too long`
      : `the path ${path} is not a valid URL`;
  void reply
    .code(error.statusCode ?? 400)
    .send(
      path.startsWith('/prometheus/')
        ? promError('bad_data', message)
        : errorBody(ApiErrorCode.InvalidRequest, message),
    );
}
