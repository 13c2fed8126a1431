import type { Level } from '@tickertape/buckets';
import type { RollupReader } from '@tickertape/query';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Answer, AnswerCache } from '../answer-cache.js';
import {
  answerBody,
  chosenFormat,
  representationHeaders,
  type ReadShape,
} from '../formats/represent.js';
import { cacheControl, canonicalQuery, reuseUntil, type CachingPolicy } from '../http-caching.js';
import { countExamined, type ApiMetrics } from '../metrics.js';
import { scopeOf } from '../token-scope.js';
import { readSignalOf } from '../request-reads.js';
import { isReadAborted } from '@tickertape/store';

/** What the read routes answer through: the reader, the kept answers and the caching rules. */
export interface Answering {
  reader: RollupReader;
  answers: AnswerCache;
  caching: CachingPolicy;
  metrics: ApiMetrics;
  now: () => number;
}

/** A read whose answer says how final it is. */
export interface FinalityAware {
  examined: number;
  openLevels: Level[];
}

export interface AnswerRequest<T extends FinalityAware> {
  /**
   * For a range relative to now: its resolved bounds (part of the key) and when it moves to
   * other buckets (the answer is reused no longer).
   */
  relative?: { fromMs: number; toMs: number; movesAtMs: number };
  read: () => Promise<T>;
  /** Its JSON schema and its table (formats/read-shapes.ts). */
  shape: ReadShape<T>;
}

/**
 * The answer kept under the route, the token's scope (one scope's answer never reaches
 * another), `parts` (what the request asks) and the reader's answer key (generations and level
 * policy, so a swap retires it), or computed by `compute` now. Every kept read goes through
 * here: /api/v1's reads and the Prometheus API's queries.
 */
export async function keptAnswer(
  ctx: Answering,
  request: FastifyRequest,
  parts: readonly (string | number)[],
  compute: () => Promise<{ body: string | Buffer; reuseUntilMs: number }>,
): Promise<Answer> {
  const key = [
    request.routeOptions.url ?? request.url,
    scopeOf(request).key,
    ...parts,
    await ctx.reader.answerKey(),
  ];
  try {
    return await ctx.answers.answer(key.join('|'), compute);
  } catch (err) {
    // An identical request computed the answer this one waited for, and its client left: the
    // failed computation is not kept, so this one reads for itself. (A timeout is not retried:
    // the same reads would take as long.)
    if (isReadAborted(err) && !readSignalOf(request).aborted)
      return ctx.answers.answer(key.join('|'), compute);
    throw err;
  }
}

/**
 * Sends the answer to one read: kept (final, or open for a moment) or read now, with a strong
 * ETag (a matching If-None-Match gets 304: answer-validation.ts, registered on /api) and a
 * Cache-Control from its finality. The key holds the route, the parsed query, the format (each
 * representation is kept and tagged on its own: the ETag is its bytes' hash), the relative
 * range's bounds, the reader's answer key (generations and level policy) and the token's scope —
 * never the token itself: tokens of one scope read the same data, and each request was
 * authenticated before it got here.
 */
export async function sendAnswer<T extends FinalityAware>(
  ctx: Answering,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: AnswerRequest<T>,
): Promise<T> {
  const { relative } = answer;
  const chosen = chosenFormat(request);
  const kept = await keptAnswer(
    ctx,
    request,
    [
      canonicalQuery(request.query),
      chosen.format,
      relative ? `${relative.fromMs}-${relative.toMs}` : '',
    ],
    async () => {
      const result = countExamined(ctx.metrics, request, await answer.read());
      const freshness = {
        openLevels: result.openLevels,
        ...(relative ? { rangeMovesAtMs: relative.movesAtMs } : {}),
      };
      return {
        body: answerBody(chosen.format, answer.shape, result),
        reuseUntilMs: reuseUntil(freshness, ctx.caching, ctx.now()),
      };
    },
  );
  representationHeaders(reply, chosen);
  void reply
    .header('etag', kept.etag)
    .header('cache-control', cacheControl(kept.reuseUntilMs, ctx.caching, ctx.now()));
  // Fastify sends a string or Buffer as it is, without serializing it again. Typed as the read's
  // answer, which the body represents, so each route keeps its response schema's type check.
  return kept.body as unknown as T;
}
