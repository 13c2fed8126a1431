import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';
import fresh from 'fresh';
import vary from 'vary';
import { bodyHash } from './http-caching.js';

/**
 * What every answer behind a token carries and honours, registered in each scope whose routes
 * need a token (/api and /prometheus/api/v1):
 *
 * - A strong ETag (@fastify/etag, the SHA-1 of the body; kept answers bring theirs).
 * - `If-None-Match` as RFC 9110 §13.1.2 reads it (`fresh`, the check express runs): `*`, or a
 *   list (`"a", W/"b"`) of which any one matches by weak comparison, answers a GET or HEAD
 *   whose answer would be 200 with 304 and no body. @fastify/etag alone compares the whole
 *   header with the tag, so `*` and lists got 200. Only that header is handed over: the
 *   request's Cache-Control is for caches, and If-Modified-Since is ignored beside it (§13.1.3;
 *   answers have no Last-Modified anyway). Other methods (the Prometheus routes' POST) answer
 *   as if unconditional.
 * - `Vary: Authorization` (beside a negotiated answer's `Accept`): whether there is an answer at
 *   all, and with scoped tokens which one, depends on the token, so a cache that honours Vary
 *   never hands one token's answer to another. A shared cache that authenticates every request
 *   may ignore it when CACHE_SCOPE=public (the local proxy does: docs/reading-at-scale.md).
 */
export async function answerValidation(scope: FastifyInstance): Promise<void> {
  await scope.register(etag, { hashFn: bodyHash, replyWith304: false });
  scope.addHook('onSend', async (request, reply, payload) => {
    void reply.header('vary', vary.append(String(reply.getHeader('vary') ?? ''), 'Authorization'));
    const ifNoneMatch = request.headers['if-none-match'];
    const tag = reply.getHeader('etag');
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.statusCode === 200 &&
      ifNoneMatch !== undefined &&
      typeof tag === 'string' &&
      fresh({ 'if-none-match': ifNoneMatch }, { etag: tag })
    ) {
      void reply.code(304);
      return '';
    }
    return payload;
  });
}
