import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorCode, errorBody } from './api-error.js';
import type { ApiMetrics } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether `given` is one of the tokens, in time independent of where they differ. Both sides are
 * hashed first because timingSafeEqual needs equal lengths (comparing lengths would leak them),
 * and every token is compared, without stopping at a match, so the time does not tell which.
 */
export function tokenMatcher(tokens: readonly string[]): (given: string) => boolean {
  const known = tokens.map(digest);
  return (given) => {
    const candidate = digest(given);
    let found = false;
    for (const token of known) found = timingSafeEqual(candidate, token) || found;
    return found;
  };
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The onRequest hook of the /api scope. Answers 401 without saying which part was wrong beyond
 * missing vs refused, and never repeats the header.
 */
export function bearerAuth(
  tokens: readonly string[],
  metrics: ApiMetrics,
  /** The refusal's body: the API's own error shape, or (under /prometheus) Prometheus'. */
  body: (error: string, message: string) => unknown = errorBody,
) {
  const matches = tokenMatcher(tokens);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    if (token !== undefined && matches(token)) return;
    const reason = token === undefined ? 'missing' : 'invalid';
    metrics.authFailures.inc({ reason });
    // Returning the reply tells Fastify the hook answered: no handler runs.
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Bearer realm="tickertape"')
      .send(
        body(
          ApiErrorCode.Unauthorized,
          reason === 'missing'
            ? 'send Authorization: Bearer <token>'
            : 'the bearer token is not one this API accepts',
        ),
      );
  };
}
