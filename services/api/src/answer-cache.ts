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

/**
 * Answers kept in memory by query: a final one until evicted (its key carries the generations,
 * so a swap retires it), an open one for `openReuseMs` at most — a moment, against the budget
 * its levels take to change — so a route asked by thousands a second reads the database once
 * per moment. Identical queries arriving while one is computed wait for it (coalescing).
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, { answer: Answer; keepUntilMs: number }> | undefined;
  private readonly inFlight = new Map<string, Promise<Answer>>();
  private readonly observe: (event: AnswerEvent) => void;

  constructor(private readonly options: AnswerCacheOptions) {
    this.observe = options.observe ?? (() => {});
    this.answers =
      options.maxBytes > 0
        ? new LRUCache({
            maxSize: options.maxBytes,
            // A UTF-16 or byte body, its key and ETag, and the entry's own overhead: an estimate.
            sizeCalculation: ({ answer }, key) =>
              (typeof answer.body === 'string' ? 2 * answer.body.length : answer.body.byteLength) +
              2 * key.length +
              160,
            dispose: (_answer, _key, reason) => {
              if (reason === 'evict') this.observe('evicted');
            },
          })
        : undefined;
  }

  get bytes(): number {
    return this.answers?.calculatedSize ?? 0;
  }

  /** The answer under `key`: kept, being computed, or computed now by `compute`. */
  async answer(
    key: string,
    compute: () => Promise<{ body: string | Buffer; reuseUntilMs: number }>,
  ): Promise<Answer> {
    const answers = this.answers;
    if (answers === undefined) return withTag(await compute());
    const kept = answers.get(key);
    if (kept !== undefined) {
      if (this.options.now() < kept.keepUntilMs) {
        this.observe('hit');
        return kept.answer;
      }
      answers.delete(key);
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      this.observe('coalesced');
      return pending;
    }
    this.observe('miss');
    const computing = compute().then((computed) => {
      const answer = withTag(computed);
      const keepUntilMs = Math.min(
        answer.reuseUntilMs,
        this.options.now() + this.options.openReuseMs,
      );
      if (answer.reuseUntilMs === Infinity || keepUntilMs > this.options.now())
        answers.set(key, {
          answer,
          keepUntilMs: answer.reuseUntilMs === Infinity ? Infinity : keepUntilMs,
        });
      return answer;
    });
    this.inFlight.set(key, computing);
    try {
      return await computing;
    } finally {
      this.inFlight.delete(key);
    }
  }
}

function withTag(computed: { body: string | Buffer; reuseUntilMs: number }): Answer {
  return { ...computed, etag: entityTag(computed.body) };
}
