import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorCode, errorBody } from './api-error.js';
import type { ApiMetrics } from './metrics.js';
import { assignScope, scopedToken, type MetricScope, type ScopedToken } from './token-scope.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The scope of the token `given` is, or undefined, in time independent of where they differ.
 * Both sides are hashed first because timingSafeEqual needs equal lengths (comparing lengths
 * would leak them), and every token is compared, without stopping at a match, so the time does
 * not tell which.
 */
export function tokenScopes(
  tokens: readonly (string | ScopedToken)[],
): (given: string) => MetricScope | undefined {
  const known = tokens.map(scopedToken).map(({ token, scope }) => ({ hash: digest(token), scope }));
  return (given) => {
    const candidate = digest(given);
    let found: MetricScope | undefined;
    for (const { hash, scope } of known) if (timingSafeEqual(candidate, hash)) found = scope;
    return found;
  };
}

/** Whether `given` is one of the tokens (tokenScopes, ignoring the scope). */
export function tokenMatcher(
  tokens: readonly (string | ScopedToken)[],
): (given: string) => boolean {
  const scopes = tokenScopes(tokens);
  return (given) => scopes(given) !== undefined;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The onRequest hook of the /api scope. Gives an accepted request its token's scope; answers 401 without saying which part was wrong beyond
 * missing vs refused, and never repeats the header.
 */
export function bearerAuth(
  tokens: readonly (string | ScopedToken)[],
  metrics: ApiMetrics,
  /** The refusal's body: the API's own error shape, or (under /prometheus) Prometheus'. */
  body: (error: string, message: string) => unknown = errorBody,
) {
  const scopes = tokenScopes(tokens);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    const scope = token === undefined ? undefined : scopes(token);
    if (scope !== undefined) {
      // What every read consults (token-scope.ts): the metrics this token may see.
      assignScope(request, scope);
      return;
    }
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
