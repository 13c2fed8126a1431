import { createHash } from 'node:crypto';
import type { Level } from '@tickertape/buckets';

/**
 * Who may keep an answer: `private` (the default) only the client's own cache; `public` lets
 * shared caches (the proxy, a CDN) serve it to every client they authenticate. Every answer is
 * behind a token, so sharing is never assumed: `public` is the operator's explicit statement that
 * every token reads the same data and every shared cache in front authenticates each request.
 */
export type CacheScope = 'public' | 'private';

export interface CachingPolicy {
  scope: CacheScope;
  /** How long a wholly final answer may be kept (seconds). */
  finalMaxAgeS: number;
  /** Each level's freshness budget: how often its open buckets change at most (docs/freshness.md). */
  budgetsMs: Readonly<Record<Level, number>>;
}

/** How final an answer is, and until when its range stays what it is. */
export interface AnswerFreshness {
  /** Levels of the open parts read; none when the answer is wholly final. */
  openLevels: readonly Level[];
  /**
   * For a range relative to now (`last=`, or no `to`): when it moves to other buckets. Its
   * answer is never final, and is kept no longer than that.
   */
  rangeMovesAtMs?: number;
}

/**
 * Until when an answer computed at `atMs` may be reused without asking again (`Infinity` for a
 * final one). An open answer changes when one of its levels flushes, at most one budget later:
 * it is kept no longer than the shortest budget of its open levels, nor past the move of its
 * range.
 */
export function reuseUntil(
  freshness: AnswerFreshness,
  policy: CachingPolicy,
  atMs: number,
): number {
  if (freshness.openLevels.length === 0 && freshness.rangeMovesAtMs === undefined) return Infinity;
  let until = atMs + Math.min(...freshness.openLevels.map((level) => policy.budgetsMs[level]));
  if (freshness.rangeMovesAtMs !== undefined) until = Math.min(until, freshness.rangeMovesAtMs);
  return Math.max(atMs, until);
}

/**
 * The Cache-Control header of an answer reusable until `untilMs`, sent at `nowMs`. Final: long
 * and `immutable` — a final bucket changes only through a rebuild or backfill, which changes the
 * ETag, so revalidating would buy nothing for as long as an operator accepts an old answer after
 * a rebuild (`finalMaxAgeS`). Open: what is left of its reuse time in whole seconds (rounded
 * down: never past its levels' next change), then served stale for as long as a budget while a
 * cache revalidates in the background.
 */
export function cacheControl(untilMs: number, policy: CachingPolicy, nowMs: number): string {
  if (untilMs === Infinity) return `${policy.scope}, max-age=${policy.finalMaxAgeS}, immutable`;
  const seconds = Math.max(0, Math.floor((untilMs - nowMs) / 1000));
  return `${policy.scope}, max-age=${seconds}, stale-while-revalidate=${Math.max(1, seconds)}`;
}

/** Answers that cannot say when they change (series lists, raw points, status) revalidate every time. */
export const REVALIDATE = 'no-cache';

/**
 * A strong ETag of a body: its SHA-1, base64. The same function for bodies the API sends and
 * answers it keeps, so a kept answer and a fresh one of the same bytes match.
 */
export function entityTag(body: string | Buffer): string {
  return `"${bodyHash(body)}"`;
}

/** The ETag's value without its quotes (what @fastify/etag's `hashFn` returns). */
export function bodyHash(body: string | Buffer): string {
  return createHash('sha1').update(body).digest('base64');
}

/**
 * A query as a cache key part: its parsed parameters with keys sorted, so `from=2026-11-21` and
 * `from=1795219200000`, or parameters in another order, are one key.
 */
export function canonicalQuery(query: unknown): string {
  return JSON.stringify(query, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : value,
  );
}
