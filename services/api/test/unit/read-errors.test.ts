import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@tickertape/logger';
import { ReadAbortedError, ReadTimeoutError } from '@tickertape/store';
import Fastify, { type FastifyInstance } from 'fastify';
import { apiErrorHandler } from '../../src/api-error.js';
import { promErrorHandler } from '../../src/prometheus/envelope.js';
import {
  READ_TIMEOUT_VARIABLE,
  clientGone,
  readTimeout,
  readTimeoutMessage,
} from '../../src/request-reads.js';

const logger = createLogger({ name: 'read-errors-test', level: 'silent' });

/** An app whose routes fail as a request's reads do, answered by the API's error handlers. */
function appThrowing(handler: typeof apiErrorHandler | typeof promErrorHandler): FastifyInstance {
  const app = Fastify();
  app.setErrorHandler(handler(logger));
  app.get('/timeout', () => Promise.reject(readTimeout(30_000)));
  // What the MongoDB store throws for the server's MaxTimeMSExpired: its own message.
  app.get('/server-timeout', () =>
    Promise.reject(
      new ReadTimeoutError('a database read ran past its 250 ms budget (maxTimeMS)', 250),
    ),
  );
  app.get('/aborted', () => Promise.reject(clientGone()));
  return app;
}

/** GET over a real socket (light-my-request's inject does not load under Jest's ESM). */
async function get(app: FastifyInstance, url: string) {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const response = await fetch(`http://127.0.0.1:${port}${url}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('read failures as answers', () => {
  const api = appThrowing(apiErrorHandler);
  const prom = appThrowing(promErrorHandler);
  beforeAll(() =>
    Promise.all([api, prom].map((app) => app.listen({ port: 0, host: '127.0.0.1' }))),
  );
  afterAll(() => Promise.all([api.close(), prom.close()]));

  it('says what the budget was and which variable sets it', () => {
    expect(readTimeoutMessage(30_000)).toContain(`${READ_TIMEOUT_VARIABLE} (30000 ms)`);
    expect(readTimeout(500)).toMatchObject({
      code: 'STORE_READ_TIMEOUT',
      retriable: true,
      budgetMs: 500,
    });
    expect(clientGone()).toBeInstanceOf(ReadAbortedError);
    expect(clientGone().retriable).toBe(true);
  });

  it.each([
    ['/timeout', 30_000],
    ['/server-timeout', 250],
  ])('/api/v1: %s is a 503 with the store code, naming the variable', async (url, budget) => {
    const answer = await get(api, url);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: 'STORE_READ_TIMEOUT',
      message: readTimeoutMessage(budget),
    });
  });

  it("/prometheus: a timeout is Prometheus' 503 `timeout`", async () => {
    const answer = await get(prom, '/server-timeout');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      status: 'error',
      errorType: 'timeout',
      error: readTimeoutMessage(250),
    });
  });

  it('a client that left gets 499 (nobody reads it), never a 500', async () => {
    expect((await get(api, '/aborted')).status).toBe(499);
    const prometheus = await get(prom, '/aborted');
    expect(prometheus.status).toBe(499);
    expect(prometheus.body).toMatchObject({ errorType: 'canceled' });
  });
});
