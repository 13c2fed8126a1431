import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RollupReader } from '@tickertape/query';
import { createMemoryStore } from '@tickertape/store';
import { waitFor } from '@tickertape/testing';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { AnswerCache } from '../../src/answer-cache.js';
import { DEFAULT_CACHING } from '../../src/app.js';
import { createApiMetrics } from '../../src/metrics.js';
import { readSignalOf, trackRequestReads } from '../../src/request-reads.js';
import { keptAnswer } from '../../src/routes/answers.js';
import { MetricScope, assignScope } from '../../src/token-scope.js';

/**
 * Identical requests share one computation (the kept answers coalesce them). When the client of
 * the request computing goes away, its reads stop; the one that waited reads for itself.
 */
describe('a coalesced answer whose first client leaves', () => {
  const app = Fastify();
  let computations = 0;
  let coalesced = 0;
  let base = '';

  beforeAll(async () => {
    trackRequestReads(app, { readTimeoutMs: 10_000 });
    // What the bearer hook does for a plain token: kept answers are keyed by the scope.
    app.addHook('onRequest', (request, _reply, done) => {
      assignScope(request, MetricScope.ALL);
      done();
    });
    const now = () => Date.now();
    const ctx = {
      reader: new RollupReader({ rollups: createMemoryStore() }),
      answers: new AnswerCache({
        maxBytes: 1 << 20,
        openReuseMs: 1000,
        now,
        observe: (event) => {
          if (event === 'coalesced') coalesced++;
        },
      }),
      caching: DEFAULT_CACHING,
      metrics: createApiMetrics(new Registry()),
      now,
    };
    app.get('/answer', async (request) => {
      const signal = readSignalOf(request);
      const kept = await keptAnswer(ctx, request, ['one question'], async () => {
        // The first computation reads until its request's signal stops it, as a store read
        // under the signal does; any later one answers at once.
        if (++computations === 1)
          await new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason as Error)),
          );
        return { body: `answer ${computations}`, reuseUntilMs: Infinity };
      });
      return kept.body;
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('answers the one that waited, by computing again under its own signal', async () => {
    const first = new AbortController();
    const abandoned = fetch(`${base}/answer`, { signal: first.signal }).catch(
      (err: unknown) => err,
    );
    await waitFor(() => computations === 1, {
      description: 'the first computation',
      intervalMs: 5,
    });
    const waiting = fetch(`${base}/answer`);
    await waitFor(() => coalesced === 1, {
      description: 'the second request joining',
      intervalMs: 5,
    });
    first.abort();
    expect(await abandoned).toMatchObject({ name: 'AbortError' });
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('answer 2');
    expect(computations).toBe(2);
  });
});
