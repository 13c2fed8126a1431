/**
 * Cancellation on the real database (issue 37 item 3): a client that goes away stops its
 * request's database work — no read starts after the API saw it leave — and is counted and
 * logged; a request past API_READ_TIMEOUT_MS answers 503 naming the variable. What the database
 * was asked is watched through the driver's own command monitoring on the client the API reads
 * with (openMongoStores' onCommandStarted), not through a stand-in for the driver.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@tickertape/logger';
import { openMongoStores, type MongoStores } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack, waitFor } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PROM_BOUNDS, type PromBounds } from '../../src/prometheus/bounds.js';
import { READ_TIMEOUT_VARIABLE } from '../../src/request-reads.js';
import { TOKEN, startTestApi, type RunningApi } from '../support/api.js';
import { MINUTE, at, writeTicks, type RefTick } from '../support/ticks.js';

const START = at('2026-03-02T09:00:00Z');
const END = START + 60 * MINUTE;
const NOW = END + 5 * MINUTE;
const SEGMENTS = 40;
const SERIES_ROUTE = '/prometheus/api/v1/series';
/** The commands that read buckets; the driver's own (killCursors, endSessions, hello) aside. */
const READS = new Set(['find', 'aggregate', 'count', 'distinct', 'getMore']);

/** Forty speed sensors over an hour: each selector below reads their minute buckets. */
function ticks(): RefTick[] {
  const out: Omit<RefTick, 'offset'>[] = [];
  for (let ts = START; ts < END; ts += MINUTE)
    for (let i = 0; i < SEGMENTS; i++) {
      const tags = { segment: `s${String(i).padStart(2, '0')}` };
      out.push({
        series: seriesKey('traffic', tags),
        metric: 'traffic',
        tags,
        ts: ts + i,
        fields: { speed: 50 + i },
      });
    }
  return out.map((tick, offset) => ({ ...tick, offset }));
}

/**
 * `count` distinct selectors, each a tag equality the database filters on: one sequential-ish
 * series lookup each (8 at once), what made 5,000 `match[]` run for minutes.
 */
function selectorsForm(count: number): URLSearchParams {
  const form = new URLSearchParams();
  for (let i = 0; i < count; i++)
    form.append(
      'match[]',
      `traffic_speed{segment="s${String(i % SEGMENTS).padStart(2, '0')}",n!="${i}"}`,
    );
  form.append('start', String(START / 1000));
  form.append('end', String(END / 1000));
  return form;
}

const WIDE: PromBounds = {
  ...DEFAULT_PROM_BOUNDS,
  matchParams: { ...DEFAULT_PROM_BOUNDS.matchParams, limit: 10_000 },
  answerSeries: { ...DEFAULT_PROM_BOUNDS.answerSeries, limit: 10_000 },
};

const postForm = (base: string, form: URLSearchParams, signal?: AbortSignal) =>
  fetch(`${base}${SERIES_ROUTE}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form.toString(),
    ...(signal ? { signal } : {}),
  });

/** The value of one series of /metrics' text, 0 when absent. */
function metricValue(text: string, name: string, route: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{route="${route}"}`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('cancellation', () => {
  let stack: TestStack;
  let stores: MongoStores;
  /** Bucket reads the API's client sent, in order. */
  const reads: string[] = [];

  beforeAll(async () => {
    stack = await TestStack.open('api-cancel');
    const db = testDatabase(stack);
    await writeTicks(db, ticks());
    stores = await openMongoStores({
      uri: stack.env.MONGODB_URI,
      database: db.databaseName,
      appName: 'api-cancel-test',
      logger: createLogger({ name: 'api-cancel-store', level: 'warn' }),
      onCommandStarted: (name) => {
        if (READS.has(name)) reads.push(name);
      },
    });
    await stores.rollups.advanceWatermarks({ minute: END, hour: START, day: START }, NOW);
  }, 180_000);
  afterAll(async () => {
    await stores?.close();
    await stack?.close();
  });

  describe('a client that goes away', () => {
    let api: RunningApi;
    /** Reads sent when the API saw the client leave, and how the request's handler ended. */
    let readsAtAbort: number | undefined;
    let settled: (err: unknown) => void = () => {};
    const ended = new Promise<unknown>((resolve) => {
      settled = resolve;
    });

    beforeAll(async () => {
      api = await startTestApi(stores, {
        reader: { now: () => NOW },
        promBounds: WIDE,
        beforeListen: (app) => {
          // Registered after the API's own: this close listener runs right after it aborted.
          app.addHook('onRequest', async (request: FastifyRequest, reply) => {
            if (request.url !== SERIES_ROUTE) return;
            reply.raw.once('close', () => {
              if (!reply.raw.writableFinished) readsAtAbort = reads.length;
            });
          });
          app.addHook('onError', async (request: FastifyRequest, _reply, err) => {
            if (request.url === SERIES_ROUTE) settled(err);
          });
        },
      });
    });
    afterAll(() => api?.close());

    it('answers a small request as usual, not counted as aborted', async () => {
      const response = await postForm(api.base, selectorsForm(3));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: unknown[] };
      expect(body.data).toHaveLength(3);
      expect(
        metricValue(await api.metrics(), 'tickertape_api_requests_aborted_total', SERIES_ROUTE),
      ).toBe(0);
    });

    it('cancels its reads: none starts after the API saw it leave, and it is counted and logged', async () => {
      const selectors = 4000;
      const client = new AbortController();
      const before = reads.length;
      const answer = postForm(api.base, selectorsForm(selectors), client.signal).catch(
        (err: unknown) => err,
      );
      // Well under way: a few rounds of the eight concurrent lookups have been sent.
      await waitFor(() => reads.length - before >= 40, { description: 'the request reading' });
      client.abort();
      expect(await answer).toMatchObject({ name: 'AbortError' });

      const err = await ended;
      expect(err).toMatchObject({ code: 'STORE_READ_ABORTED', retriable: true });
      expect(readsAtAbort).toBeDefined();
      const atAbort = readsAtAbort!;
      // The lookups in flight when it left were cancelled, not followed by more. An observation
      // window, not a wait for a condition: nothing is expected to happen in it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reads.length).toBe(atAbort);
      // The whole request would have sent at least one read per selector.
      expect(atAbort - before).toBeLessThan(selectors / 4);

      const metrics = await api.metrics();
      expect(metricValue(metrics, 'tickertape_api_requests_aborted_total', SERIES_ROUTE)).toBe(1);
      const line = api
        .logs()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.aborted === true);
      expect(line).toMatchObject({ route: SERIES_ROUTE, method: 'POST', aborted: true });
      expect(line?.msg).toContain('aborted');
      // The API goes on answering.
      expect((await postForm(api.base, selectorsForm(2))).status).toBe(200);
    }, 60_000);
  });

  describe(`a request past ${READ_TIMEOUT_VARIABLE}`, () => {
    let api: RunningApi;

    beforeAll(async () => {
      // The stand-in ignores maxTimeMS: the API's own deadline stops these reads.
      api = await startTestApi(stores, {
        reader: { now: () => NOW },
        promBounds: WIDE,
        readTimeoutMs: 150,
      });
    });
    afterAll(() => api?.close());

    it('answers 503 in Prometheus shape, naming the variable, and counts it', async () => {
      const response = await postForm(api.base, selectorsForm(4000));
      expect(response.status).toBe(503);
      const body = (await response.json()) as { status: string; errorType: string; error: string };
      expect(body).toMatchObject({ status: 'error', errorType: 'timeout' });
      expect(body.error).toContain(`${READ_TIMEOUT_VARIABLE} (150 ms)`);
      const metrics = await api.metrics();
      expect(metricValue(metrics, 'tickertape_api_read_timeouts_total', SERIES_ROUTE)).toBe(1);
      expect(metricValue(metrics, 'tickertape_api_requests_aborted_total', SERIES_ROUTE)).toBe(0);
    }, 60_000);

    it('answers 503 with the store code on the /api/v1 reads, naming the variable', async () => {
      // A budget no read can meet: the deadline passes before or while the lookup reads.
      const tiny = await startTestApi(stores, { reader: { now: () => NOW }, readTimeoutMs: 1 });
      try {
        const from = new Date(START).toISOString();
        const answer = await tiny.get<{ error: string; message: string }>(
          `/api/v1/series?metric=traffic&from=${from}`,
        );
        expect(answer.status).toBe(503);
        expect(answer.body.error).toBe('STORE_READ_TIMEOUT');
        expect(answer.body.message).toContain(`${READ_TIMEOUT_VARIABLE} (1 ms)`);
        const metrics = await tiny.metrics();
        expect(metricValue(metrics, 'tickertape_api_read_timeouts_total', '/api/v1/series')).toBe(
          1,
        );
      } finally {
        await tiny.close();
      }
    });
  });
});
