/**
 * HTTP caching from finality on the real stack: strong ETags and 304s (RFC 9110: `*` and lists),
 * Cache-Control by finality (final: long and immutable; open: no longer than the level's
 * freshness budget or the range's next move), private unless CACHE_SCOPE=public and varying by
 * Authorization, one answer for every token and none without one, the in-process cache of final
 * buckets, and a rebuild that changes final buckets changing their answers and ETags.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { partitionOf } from '@tickertape/buckets';
import { rebuild } from '@tickertape/history';
import { createLogger } from '@tickertape/logger';
import { storesOf } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { TIME_WINDOW_DEFAULTS } from '@tickertape/topology';
import type { Db } from 'mongodb';
import type { LevelsBody, WindowBody } from '../../src/response-schemas.js';
import { OTHER_TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { refWindow, ticksOf } from '../support/reference.js';
import { HOUR, MINUTE, NOW, at, dataset, storedTicks } from '../support/ticks.js';

const data = dataset(11);
const [s1, s2, s3] = data.sensors as [string, string, string];
const IMMUTABLE = 'private, max-age=86400, immutable';

const windowPath = (from: number, to: number, ...series: string[]) =>
  `/api/v1/window${qs(...series.map((s): [string, string] => ['series', s]), ['field', 'speed'], ['from', from], ['to', to])}`;

/** Sums of the metric family in the /metrics text, by its labels as written. */
function counter(metrics: string, name: string, labels: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('HTTP caching by finality', () => {
  let stack: TestStack;
  let db: Db;
  let api: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-http-caching');
    const stored = await storedTicks(stack, data.ticks);
    db = stored.db;
    api = await startTestApi(stored.stores, {
      reader: { now: () => NOW },
      bucketCacheBytes: 16 << 20,
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it('answers a final window with a strong ETag, for a day and immutable, and 304 when it matches', async () => {
    const path = windowPath(at('2025-12-31T23:30:00Z'), at('2025-12-31T23:40:00Z'), s2, s3);
    const first = await api.get<WindowBody>(path);
    expect(first.status).toBe(200);
    expect(first.body.rows.every((row) => row.final)).toBe(true);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    expect(first.headers.get('cache-control')).toBe(IMMUTABLE);

    const again = await api.get(path, undefined, { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(IMMUTABLE);

    // Answers behind a token say so to every cache, and the 304 says it too.
    for (const answer of [first, again])
      expect(answer.headers.get('vary')?.split(/, */)).toContain('Authorization');

    // Another ETag, or the same query in another spelling of its instants, is answered in full.
    const stale = await api.get(path, undefined, { 'If-None-Match': '"something-else"' });
    expect(stale.status).toBe(200);
    const iso = `/api/v1/window${qs(['series', s2], ['series', s3], ['field', 'speed'], ['from', '2025-12-31T23:30:00Z'], ['to', '2025-12-31T23:40Z'])}`;
    const spelled = await api.get(iso);
    expect(spelled.headers.get('etag')).toBe(etag);
    expect(spelled.text).toBe(first.text);
  });

  it('answers If-None-Match as RFC 9110 reads it: *, lists, and weak comparison', async () => {
    const path = windowPath(at('2025-12-31T23:10:00Z'), at('2025-12-31T23:20:00Z'), s1);
    const first = await api.get(path);
    const etag = first.headers.get('etag')!;
    const weak = `W/${etag}`;
    for (const ifNoneMatch of [
      '*',
      weak,
      `"other", ${etag}`,
      `W/"other",${weak}`,
      `  "a" ,  "b",${etag}  `,
    ]) {
      const answer = await api.get(path, undefined, { 'If-None-Match': ifNoneMatch });
      expect([ifNoneMatch, answer.status, answer.text]).toEqual([ifNoneMatch, 304, '']);
      expect(answer.headers.get('etag')).toBe(etag);
    }
    for (const ifNoneMatch of ['"other"', '"a", W/"b"', etag.slice(0, -2) + '"']) {
      const answer = await api.get(path, undefined, { 'If-None-Match': ifNoneMatch });
      expect([ifNoneMatch, answer.status]).toEqual([ifNoneMatch, 200]);
      expect(answer.text).toBe(first.text);
    }
    // `*` matches an answer that exists: never an error, nor a request without a valid token.
    const missing = await api.get('/api/v1/nothing-here', undefined, { 'If-None-Match': '*' });
    expect(missing.status).toBe(404);
    expect((await api.get(path, null, { 'If-None-Match': '*' })).status).toBe(401);
    // HEAD is conditional as GET is.
    const head = await fetch(`${api.base}${path}`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${OTHER_TOKEN}`, 'If-None-Match': `"x", ${weak}` },
    });
    expect(head.status).toBe(304);
  });

  it('conditions Prometheus queries alike: GET 304 on a list, POST answered in full', async () => {
    const query = `/prometheus/api/v1/query${qs(['query', 'speed_speed'], ['time', at('2025-12-31T23:30:00Z') / 1000])}`;
    const first = await api.get(query);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('vary')).toBe('Authorization');
    const again = await api.get(query, undefined, { 'If-None-Match': `"x", W/${etag}` });
    expect(again.status).toBe(304);
    expect((await api.get(query, undefined, { 'If-None-Match': '*' })).status).toBe(304);
    const posted = await fetch(`${api.base}/prometheus/api/v1/query`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${OTHER_TOKEN}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'If-None-Match': '*',
      },
      body: query.split('?')[1],
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toBe(first.text);
  });

  it('keeps an open window no longer than its level budget, nor a relative one past its move', async () => {
    // Hour 00 is open (the hour watermark is at 00:00): its minutes change at each hour flush.
    const open = await api.get<WindowBody>(
      windowPath(at('2026-01-01T00:40:00Z'), at('2026-01-01T00:50:00Z'), s1),
    );
    expect(open.body.rows[0]!.final).toBe(false);
    expect(open.headers.get('cache-control')).toBe(
      'private, max-age=60, stale-while-revalidate=60',
    );
    // The last ten minutes at 01:15:30 move to other buckets at 01:16:00, 30 s later.
    const last = await api.get(
      `/api/v1/window${qs(['series', s1], ['field', 'speed'], ['last', '10m'])}`,
    );
    expect(last.headers.get('cache-control')).toBe(
      'private, max-age=30, stale-while-revalidate=30',
    );
    expect(last.headers.get('etag')).toMatch(/^"/);
  });

  it('gives every token the same answer and ETag, and nothing without a valid one', async () => {
    const path = windowPath(at('2025-12-31T23:00:00Z'), at('2025-12-31T23:50:00Z'), s1, s2);
    const mine = await api.get(path);
    const theirs = await api.get(path, OTHER_TOKEN);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('etag')).toBe(mine.headers.get('etag'));
    expect(theirs.text).toBe(mine.text);
    // What a caching proxy asks before serving a kept answer (infra/local/proxy).
    expect((await api.get('/api/v1/token')).status).toBe(204);
    expect((await api.get('/api/v1/token', null)).status).toBe(401);
    // A kept answer is still behind the token: no token, or a wrong one, gets 401 and no data,
    // even with the answer's ETag.
    for (const token of [null, 'not-a-token-we-know-of-0000']) {
      const refused = await api.get(path, token, { 'If-None-Match': mine.headers.get('etag')! });
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('rows');
      expect(refused.headers.get('etag')).not.toBe(mine.headers.get('etag'));
    }
  });

  it('serves an overlapping final window from the buckets it keeps', async () => {
    const before = await api.metrics();
    const hits = () =>
      counter(before, 'tickertape_api_cache_lookups_total', 'cache="buckets",result="hit"');
    const first = await api.get<WindowBody>(
      windowPath(at('2025-12-31T22:41:00Z'), at('2025-12-31T22:51:00Z'), s1, s2, s3),
    );
    const shifted = await api.get<WindowBody>(
      windowPath(at('2025-12-31T22:43:00Z'), at('2025-12-31T22:53:00Z'), s1, s2, s3),
    );
    const after = await api.metrics();
    // The second window is other minutes of the same hour buckets: all three from memory.
    expect(
      counter(after, 'tickertape_api_cache_lookups_total', 'cache="buckets",result="hit"') - hits(),
    ).toBe(3);
    expect(counter(after, 'tickertape_api_cache_bytes', 'cache="buckets"')).toBeGreaterThan(0);
    for (const [body, from] of [
      [first.body, at('2025-12-31T22:41:00Z')],
      [shifted.body, at('2025-12-31T22:43:00Z')],
    ] as const)
      for (const row of body.rows)
        expect(row).toMatchObject(
          refWindow(ticksOf(data.ticks, row.series, 'speed', from, from + 10 * MINUTE), 'speed'),
        );
  });

  it('changes the answer and its ETag when a rebuild swaps final buckets', async () => {
    const from = at('2025-12-31T23:05:00Z');
    const to = at('2025-12-31T23:25:00Z');
    const path = windowPath(from, to, s2);
    const before = await api.get<WindowBody>(path);
    const expected = refWindow(ticksOf(data.ticks, s2, 'speed', from, to), 'speed');
    expect(before.body.rows[0]).toMatchObject(expected);

    // Lose five minutes of the source level, without a swap: final buckets change in no other
    // way, so the kept answer stands (served from memory, not read again).
    const hour = at('2025-12-31T23:00:00Z');
    const lost = { $gte: new Date(from), $lt: new Date(from + 5 * MINUTE) };
    const minutes = partitionOf('minute', from).name;
    expect(
      (await db.collection(minutes).deleteMany({ series: s2, start: lost })).deletedCount,
    ).toBe(5);
    expect((await api.get(path)).headers.get('etag')).toBe(before.headers.get('etag'));

    // The rebuild of the hour from the minute level swaps the hour bucket: a new generation.
    const logger = createLogger({ name: 'test', level: 'silent' });
    await rebuild(
      (await storesOf(db)).rollups,
      {
        level: 'hour',
        source: 'minute',
        topic: 'unused',
        fromMs: hour,
        toMs: hour + HOUR,
        ...TIME_WINDOW_DEFAULTS,
        timeoutMs: 60_000,
        dryRun: false,
      },
      () => Promise.reject(new Error('a level rebuild opens no topic')),
      logger,
      { now: Date.now },
    );
    const after = await api.get<WindowBody>(path, undefined, {
      'If-None-Match': before.headers.get('etag')!,
    });
    // Read again: the hour bucket now lacks the five minutes, and the old ETag no longer matches.
    expect(after.status).toBe(200);
    expect(after.body.rows[0]).toMatchObject(
      refWindow(ticksOf(data.ticks, s2, 'speed', from + 5 * MINUTE, to), 'speed'),
    );
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('puts ETags on answers that cannot say when they change, and asks caches to revalidate', async () => {
    const levels = await api.get<LevelsBody>('/api/v1/levels');
    expect(levels.headers.get('cache-control')).toBe('no-cache');
    const etag = levels.headers.get('etag')!;
    expect((await api.get('/api/v1/levels', undefined, { 'If-None-Match': etag })).status).toBe(
      304,
    );
    const series = await api.get(
      `/api/v1/series${qs(['metric', 'speed'], ['from', data.start], ['to', data.start + HOUR])}`,
    );
    expect(series.headers.get('cache-control')).toBe('no-cache');
    expect(series.headers.get('etag')).toMatch(/^"/);
  });
});
