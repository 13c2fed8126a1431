import { describe, expect, it } from '@jest/globals';
import { AnswerCache, type AnswerEvent } from '../../src/answer-cache.js';
import { entityTag } from '../../src/http-caching.js';

function setup(options: { maxBytes?: number; openReuseMs?: number } = {}) {
  let t = 1_000_000;
  const events: AnswerEvent[] = [];
  const cache = new AnswerCache({
    maxBytes: options.maxBytes ?? 1 << 20,
    openReuseMs: options.openReuseMs ?? 1000,
    now: () => t,
    observe: (event) => events.push(event),
  });
  let computed = 0;
  const compute = (body: string, reuseUntilMs: number) => () => {
    computed += 1;
    return Promise.resolve({ body, reuseUntilMs });
  };
  return {
    cache,
    events,
    compute,
    computed: () => computed,
    advance: (ms: number) => (t += ms),
    now: () => t,
  };
}

describe('AnswerCache', () => {
  it('computes a final answer once and keeps it, with the ETag of its body', async () => {
    const s = setup();
    const first = await s.cache.answer('k', s.compute('{"a":1}', Infinity));
    s.advance(3_600_000);
    const again = await s.cache.answer('k', s.compute('{"a":2}', Infinity));
    expect(again).toEqual(first);
    expect(first.etag).toBe(entityTag('{"a":1}'));
    expect(s.computed()).toBe(1);
    expect(s.events).toEqual(['miss', 'hit']);
  });

  it('reuses an open answer for openReuseMs at most, and not past its own reuse time', async () => {
    const s = setup({ openReuseMs: 1000 });
    await s.cache.answer('long', s.compute('1', s.now() + 60_000));
    await s.cache.answer('short', s.compute('1', s.now() + 300));
    s.advance(299);
    await s.cache.answer('long', s.compute('2', Infinity));
    await s.cache.answer('short', s.compute('2', Infinity));
    expect(s.computed()).toBe(2);
    s.advance(1);
    expect((await s.cache.answer('short', s.compute('3', Infinity))).body).toBe('3');
    s.advance(700);
    expect((await s.cache.answer('long', s.compute('4', Infinity))).body).toBe('4');
    expect(s.computed()).toBe(4);
  });

  it('answers identical queries in flight with one computation', async () => {
    const s = setup();
    let release!: () => void;
    let calls = 0;
    const slow = () => {
      calls += 1;
      return new Promise<{ body: string; reuseUntilMs: number }>((resolve) => {
        release = () => resolve({ body: 'x', reuseUntilMs: s.now() });
      });
    };
    const answers = [1, 2, 3].map(() => s.cache.answer('k', slow));
    release();
    const done = await Promise.all(answers);
    expect(calls).toBe(1);
    expect(new Set(done.map((a) => a.body))).toEqual(new Set(['x']));
    expect(s.events).toEqual(['miss', 'coalesced', 'coalesced']);
  });

  it('recomputes an answer past its time once, however many ask while it is recomputed', async () => {
    const s = setup({ openReuseMs: 1000 });
    await s.cache.answer('k', s.compute('old', s.now() + 500));
    s.advance(500);
    let release!: () => void;
    let calls = 0;
    const slow = () => {
      calls += 1;
      return new Promise<{ body: string; reuseUntilMs: number }>((resolve) => {
        release = () => resolve({ body: 'new', reuseUntilMs: Infinity });
      });
    };
    const answers = [1, 2].map(() => s.cache.answer('k', slow));
    release();
    expect((await Promise.all(answers)).map((a) => a.body)).toEqual(['new', 'new']);
    expect(calls).toBe(1);
    expect(s.events).toEqual(['miss', 'miss', 'coalesced']);
    expect((await s.cache.answer('k', s.compute('newer', Infinity))).body).toBe('new');
  });

  it('keeps nothing after a failed computation', async () => {
    const s = setup();
    await expect(s.cache.answer('k', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect((await s.cache.answer('k', s.compute('ok', Infinity))).body).toBe('ok');
  });

  it('stays within its bytes, evicting the least recently used', async () => {
    const body = 'x'.repeat(1000);
    const s = setup({ maxBytes: 5000 });
    await s.cache.answer('a', s.compute(body, Infinity));
    await s.cache.answer('b', s.compute(body, Infinity));
    await s.cache.answer('a', s.compute(body, Infinity));
    await s.cache.answer('c', s.compute(body, Infinity));
    expect(s.cache.bytes).toBeLessThanOrEqual(5000);
    expect(s.events.filter((e) => e === 'evicted')).toHaveLength(1);
    await s.cache.answer('a', s.compute(body, Infinity));
    await s.cache.answer('b', s.compute(body, Infinity));
    expect(s.computed()).toBe(4);
  });

  it('with no bytes, computes every time and shares nothing', async () => {
    const s = setup({ maxBytes: 0 });
    await Promise.all([
      s.cache.answer('k', s.compute('1', Infinity)),
      s.cache.answer('k', s.compute('1', Infinity)),
    ]);
    expect(s.computed()).toBe(2);
    expect(s.events).toEqual([]);
  });
});
