import { LRUCache } from 'lru-cache';
import { entityTag } from './http-caching.js';

/** One computed answer: its body as sent (JSON or CSV text, Arrow bytes), its ETag, and until when it may be reused. */
export interface Answer {
  body: string | Buffer;
  etag: string;
  /** `Infinity` for a final answer (see reuseUntil). */
  reuseUntilMs: number;
}

export type AnswerEvent = 'hit' | 'miss' | 'coalesced' | 'evicted';

export interface AnswerCacheOptions {
  /** The most bytes kept bodies may take; 0 keeps nothing and coalesces nothing. */
  maxBytes: number;
  /** How long an open answer is reused in this process at most, however long it may be. */
  openReuseMs: number;
  now: () => number;
  observe?: (event: AnswerEvent) => void;
}

type Compute = () => Promise<{ body: string | Buffer; reuseUntilMs: number }>;

interface Kept {
  answer: Answer;
  keepUntilMs: number;
}

/**
 * Answers kept in memory by query: a final one until evicted (its key carries the generations,
 * so a swap retires it), an open one for `openReuseMs` at most — a moment, against the budget
 * its levels take to change — so a route asked by thousands a second reads the database once
 * per moment. Identical queries arriving while one is computed wait for it: lru-cache's `fetch`
 * coalesces them, as it does for the reader's final buckets (@tickertape/query).
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Kept, Compute> | undefined;
  private readonly observe: (event: AnswerEvent) => void;

  constructor(private readonly options: AnswerCacheOptions) {
    this.observe = options.observe ?? (() => {});
    this.answers =
      options.maxBytes > 0
        ? new LRUCache<string, Kept, Compute>({
            maxSize: options.maxBytes,
            // A UTF-16 or byte body, its key and ETag, and the entry's own overhead: an estimate.
            sizeCalculation: ({ answer }, key) =>
              (typeof answer.body === 'string' ? 2 * answer.body.length : answer.body.byteLength) +
              2 * key.length +
              160,
            dispose: (_kept, _key, reason) => {
              if (reason === 'evict') this.observe('evicted');
            },
            fetchMethod: async (_key, _stale, { context: compute }) => {
              const answer = withTag(await compute());
              const keepUntilMs =
                answer.reuseUntilMs === Infinity
                  ? Infinity
                  : Math.min(answer.reuseUntilMs, this.options.now() + this.options.openReuseMs);
              return { answer, keepUntilMs };
            },
          })
        : undefined;
  }

  get bytes(): number {
    return this.answers?.calculatedSize ?? 0;
  }

  /** The answer under `key`: kept, being computed, or computed now by `compute`. */
  async answer(key: string, compute: Compute): Promise<Answer> {
    const answers = this.answers;
    if (answers === undefined) return withTag(await compute());
    // Kept answers age by the injected clock, not lru-cache's own: an expired one is refreshed.
    const kept = answers.peek(key);
    const status: LRUCache.Status<string, Kept, Compute> = {};
    const fetching = answers.fetch(key, {
      context: compute,
      forceRefresh: kept !== undefined && this.options.now() >= kept.keepUntilMs,
      status,
    });
    // fetch tells how it answers before it settles: kept, joining a computation, or a new one.
    this.observe(
      status.fetch === 'hit' ? 'hit' : status.fetch === 'inflight' ? 'coalesced' : 'miss',
    );
    const fetched = await fetching;
    // fetchMethod always gives an entry; one already past its time is not kept.
    const { answer, keepUntilMs } = fetched!;
    if (this.options.now() >= keepUntilMs && answers.peek(key) === fetched) answers.delete(key);
    return answer;
  }
}

function withTag(computed: { body: string | Buffer; reuseUntilMs: number }): Answer {
  return { ...computed, etag: entityTag(computed.body) };
}
