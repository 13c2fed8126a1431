import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { TestStack, freePort } from '@tickertape/testing';
import { MongoClient } from 'mongodb';
import type { ErrorBody } from '../../src/api-error.js';
import type { PointsBody } from '../../src/response-schemas.js';
import { OTHER_TOKEN, TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { at, dataset, writeTicks } from '../support/ticks.js';
import { testDatabase } from '@tickertape/store/testing';

const data = dataset();
const [s1, s2, s3] = data.sensors as [string, string, string];
const WRONG = 'not-the-token-but-long-enough';

const points = (...pairs: [string, string | number][]) => `/api/v1/points${qs(...pairs)}`;
const window = (...pairs: [string, string | number][]) => `/api/v1/window${qs(...pairs)}`;
const series = (...pairs: [string, string | number][]) => `/api/v1/series${qs(...pairs)}`;
const one = (...extra: [string, string | number][]): [string, string | number][] => [
  ['series', s1],
  ['field', 'speed'],
  ...extra,
];
const hour = one(['from', '2026-01-01T00:00:00Z'], ['to', '2026-01-01T01:00:00Z']);

describe('what the API refuses, and how', () => {
  let stack: TestStack;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-refusals');
    const db = testDatabase(stack);
    await writeTicks(db, data.ticks);
    // Three series per window at most, so "too many series" needs a short URL.
    api = await startTestApi(await storesOf(db), { reader: { limits: { maxSeries: 3 } } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  describe('auth', () => {
    it.each([
      ['no header', null, 'send Authorization: Bearer <token>'],
      ['an unknown token', WRONG, 'the bearer token is not one this API accepts'],
      ['an empty token', '', 'send Authorization: Bearer <token>'],
    ])('answers 401 to %s on every /api route', async (_case, token, message) => {
      for (const path of [
        series(),
        points(...hour),
        '/api/v1/levels',
        '/api/v1/status?series=x',
        '/api/v1/no-such-route',
      ]) {
        const res = await api.get(path, token);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'unauthorized', message });
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="tickertape"');
      }
    });

    it('refuses another scheme, and accepts every configured token', async () => {
      const basic = await fetch(`${api.base}/api/v1/levels`, {
        headers: { Authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` },
      });
      expect(basic.status).toBe(401);
      expect((await api.get('/api/v1/levels', TOKEN)).status).toBe(200);
      expect((await api.get('/api/v1/levels', OTHER_TOKEN)).status).toBe(200);
      expect((await api.get('/api/v1/levels', `${TOKEN}x`)).status).toBe(401);
      expect((await api.get('/api/v1/levels', TOKEN.slice(0, -1))).status).toBe(401);
    });

    it('answers 404 to an unknown /api route only with a token', async () => {
      const res = await api.get('/api/v1/no-such-route');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: 'not_found',
        message: 'no route GET /api/v1/no-such-route; the routes are listed at /openapi.json',
      });
      expect((await api.get('/elsewhere', null)).status).toBe(404);
    });

    it('needs no token for /health, /metrics, /openapi.json, /docs/ and the dashboard', async () => {
      for (const path of ['/health', '/metrics', '/openapi.json', '/docs/', '/dashboard/'])
        expect((await api.get(path, null)).status).toBe(200);
    });

    it('counts refusals, and never shows a token in an answer or a log line', async () => {
      await api.get('/api/v1/levels', WRONG);
      const metrics = (await api.get('/metrics', null)).text;
      expect(metrics).toMatch(/tickertape_api_auth_failures_total\{reason="invalid"\} [1-9]/);
      expect(metrics).toMatch(/tickertape_api_auth_failures_total\{reason="missing"\} [1-9]/);
      expect(metrics).not.toContain(WRONG);
      expect(api.logs()).toContain('"status":401');
      for (const secret of [TOKEN, OTHER_TOKEN, WRONG]) expect(api.logs()).not.toContain(secret);
    });
  });

  describe('400 with a code and a message saying what to change', () => {
    it.each<[string, string, string, RegExp]>([
      [
        'a missing parameter',
        points(['field', 'speed'], ['from', 0]),
        'invalid_request',
        /^series: is required$/,
      ],
      [
        'an unparsable date',
        points(...one(['from', 'yesterday'])),
        'invalid_request',
        /^from: "yesterday" is not a time; give RFC 3339 with an offset .* now-1h30m/,
      ],
      [
        'a date not in the calendar',
        points(...one(['from', '2026-02-30'])),
        'invalid_request',
        /^from: "2026-02-30" is not a time/,
      ],
      [
        'from after to',
        points(...one(['from', '2026-01-01T02:00Z'], ['to', '2026-01-01T01:00Z'])),
        'QUERY_INVALID_RANGE',
        /^from \(2026-01-01T02:00:00.000Z\) must be before to \(2026-01-01T01:00:00.000Z\)$/,
      ],
      [
        'from equal to to',
        points(...one(['from', 5000], ['to', 5000])),
        'QUERY_INVALID_RANGE',
        /must be before to/,
      ],
      [
        'a quantile outside [0, 1]',
        points(...hour, ['quantile', '0.5,95']),
        'invalid_request',
        /^quantile: "95" is not a quantile: give each φ in \[0, 1\], e\.g\. 0\.5,0\.85,0\.99$/,
      ],
      [
        'a quantile that is no number',
        window(['series', s1], ['field', 'speed'], ['last', '10m'], ['quantile', 'p99']),
        'invalid_request',
        /^quantile: "p99" is not a quantile/,
      ],
      [
        'more quantiles than columns allowed',
        window(
          ['series', s1],
          ['field', 'speed'],
          ['last', '10m'],
          ['quantile', Array.from({ length: 17 }, (_, i) => String(i / 20)).join(',')],
        ),
        'QUERY_INVALID_QUANTILE',
        /^17 quantiles asked for; at most 16$/,
      ],
      [
        'a date past 2100',
        points(...one(['from', '2200-01-01'], ['to', '2200-01-02'])),
        'QUERY_INVALID_RANGE',
        /^from must be an instant between 1970 and 2100/,
      ],
      [
        'an unknown level',
        points(...hour, ['level', 'week']),
        'QUERY_UNKNOWN_LEVEL',
        /^unknown level "week"; levels: minute, hour, day$/,
      ],
      [
        'a malformed series key',
        points(['series', 'speed|sensor'], ['field', 'speed'], ['from', 0], ['to', 1000]),
        'QUERY_INVALID_SERIES',
        /^invalid series key "speed\|sensor"/,
      ],
      [
        'a field name that is not a name',
        points(['series', s1], ['field', 'a.b'], ['from', 0], ['to', 1000]),
        'QUERY_INVALID_NAME',
        /^invalid field name "a.b"/,
      ],
      [
        'detail without level',
        points(...hour, ['detail', 'sub']),
        'invalid_request',
        /^detail: applies only with level=minute\|hour\|day$/,
      ],
      [
        'maxPoints with level',
        points(...hour, ['level', 'hour'], ['maxPoints', 10]),
        'invalid_request',
        /^maxPoints: applies only without level/,
      ],
      [
        'maxPoints of 0',
        points(...hour, ['maxPoints', 0]),
        'invalid_request',
        /^maxPoints: Too small: expected number to be >=1$/,
      ],
      [
        'maxPoints not a number',
        points(...hour, ['maxPoints', 'many']),
        'invalid_request',
        /^maxPoints: must be a number$/,
      ],
      [
        'a repeated single parameter',
        points(...hour, ['series', s2]),
        'invalid_request',
        /^series: give it once/,
      ],
      [
        'an unknown parameter',
        points(...hour, ['colour', 'red']),
        'invalid_request',
        /Unrecognized key: "colour"/,
      ],
      [
        'a series limit over 1000',
        series(['limit', 1001]),
        'invalid_request',
        /^limit: Too big: expected number to be <=1000$/,
      ],
      [
        'a tag without a value',
        series(['tag', 'sensor']),
        'invalid_request',
        /^tag: "sensor" is not a tag; give key=value \(or key:value\)/,
      ],
      [
        'one tag with two values',
        series(['tag', 'sensor:s1'], ['tag', 'sensor:s2']),
        'invalid_request',
        /^tag: tag "sensor" is given twice/,
      ],
      [
        'a window without series',
        window(['field', 'speed'], ['last', '10m']),
        'invalid_request',
        /^series: name the series: give either series \(repeatable\) or metric \(with tag, limit\), not both$/,
      ],
      [
        'a window with last and from',
        window(['series', s1], ['field', 'speed'], ['last', '10m'], ['from', 0]),
        'invalid_request',
        /^last: give either last or from\/to, not both$/,
      ],
      [
        'a bad duration',
        window(['series', s1], ['field', 'speed'], ['last', '10x']),
        'invalid_request',
        /^last: "10x" is not a window length; give whole minutes/,
      ],
      [
        'too many series',
        window(
          ['series', s1],
          ['series', s2],
          ['series', s3],
          ['series', data.stock],
          ['field', 'speed'],
          ['last', '10m'],
        ),
        'QUERY_TOO_MANY_SERIES',
        /^4 series requested; the limit is 3$/,
      ],
      [
        'a bad series in a status',
        '/api/v1/status?series=a%7Cb',
        'QUERY_INVALID_SERIES',
        /^invalid series key "a\|b"/,
      ],
    ])('refuses %s', async (_case, path, error, message) => {
      const res = await api.get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error, message: expect.stringMatching(message) });
    });

    it.each<[string, string, string]>([
      [
        'six days of minute buckets (8640 of 5000 documents)',
        points(...one(['from', '2025-12-26'], ['to', '2026-01-01'], ['level', 'minute'])),
        'QUERY_READ_BUDGET_EXCEEDED',
      ],
      [
        'a day of seconds',
        points(
          ...one(
            ['from', '2025-12-31'],
            ['to', '2026-01-01'],
            ['level', 'minute'],
            ['detail', 'sub'],
          ),
        ),
        'QUERY_TOO_MANY_POINTS',
      ],
      [
        'twenty years of series discovery',
        series(['from', '2000-01-01'], ['to', '2020-01-01']),
        'QUERY_READ_BUDGET_EXCEEDED',
      ],
      [
        'a year-long window of seconds-wide edges',
        window(
          ['series', s1],
          ['series', s2],
          ['series', s3],
          ['field', 'speed'],
          ['from', '2020-01-01T00:01Z'],
          ['to', '2026-12-31T23:59Z'],
        ),
        'QUERY_READ_BUDGET_EXCEEDED',
      ],
    ])('refuses a read over budget before reading: %s', async (_case, path, error) => {
      const res = await api.get<ErrorBody>(path);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
      expect(res.body.message).toMatch(/limit is/);
    });

    it('still answers a wide range by choosing a coarser width (maxPoints caps, never refuses)', async () => {
      const res = await api.get<PointsBody>(
        points(...one(['from', '2025-01-01'], ['to', '2026-01-02'], ['maxPoints', 100000])),
      );
      expect(res.status).toBe(200);
      // 366 days within the default MAX_POINTS of 10 000: hours would be 8784, so hours.
      expect(res.body.resolution.stepMs).toBe(at('1970-01-01T01:00:00Z'));
    });
  });

  describe('when the database is gone', () => {
    let dead: MongoClient;
    let broken: RunningApi;

    beforeAll(async () => {
      dead = new MongoClient(`mongodb://127.0.0.1:${await freePort()}`, {
        appName: 'api-dead',
        serverSelectionTimeoutMS: 300,
      });
      // No server to probe: the store is told what it would have found.
      const gone = { server: 'gone', renamesSafely: false, causalReads: false, shells: false };
      broken = await startTestApi(await storesOf(dead.db('gone'), gone));
    });
    afterAll(async () => {
      await broken?.close();
      await dead?.close();
    });

    it('answers 500 without internals, pointing to the log line by request id', async () => {
      const res = await broken.get<ErrorBody>(series());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'internal_error',
        message: 'the request failed on our side; the log holds the details under this requestId',
        requestId: expect.any(String),
      });
      expect(res.text).not.toMatch(/127\.0\.0\.1|Mongo|ECONNREFUSED/);
      const line = broken
        .logs()
        .split('\n')
        .find((l) => l.includes('request failed'));
      expect(line).toContain(`"requestId":"${res.body.requestId}"`);
      expect(line).toContain('MongoServerSelectionError');
    });

    it('reports unavailable on /health', async () => {
      const res = await broken.get('/health', null);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', message: 'database unreachable' });
    });
  });
});
