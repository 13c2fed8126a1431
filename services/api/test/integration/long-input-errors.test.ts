/**
 * Refusals quote what they refuse, never all of it (issue 37: names of any length came back
 * whole): every parameter of the /api/v1 and /prometheus routes given 5,000 characters, and the
 * URLs Fastify refuses before routing, answer 4xx with the input cut to its start and length,
 * in the route's own error shape, with the security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CUT_CHARS } from '@tickertape/errors';
import { storesOf } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { testDatabase } from '@tickertape/store/testing';
import { qs, startTestApi, type RunningApi } from '../support/api.js';

/** Long enough to matter, short enough for Node's 16 KB of request line and headers. */
const LONG = 'x'.repeat(5_000);
/** The longest refusal: a message quoting one or two cut inputs, and its envelope. */
const MAX_BODY_CHARS = 600;

describe('refusals of long input', () => {
  let stack: TestStack;
  let api: RunningApi;
  beforeAll(async () => {
    stack = await TestStack.open('api-long-input');
    api = await startTestApi(await storesOf(testDatabase(stack)));
  });
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it.each([
    [
      'a series key',
      `/api/v1/points${qs(['series', `m|${LONG}`], ['field', 'f'], ['last', '5m'])}`,
    ],
    [
      'a field name',
      `/api/v1/points${qs(['series', 'm|a=b'], ['field', `a.${LONG}`], ['last', '5m'])}`,
    ],
    ['an instant', `/api/v1/points${qs(['series', 'm|a=b'], ['field', 'f'], ['from', LONG])}`],
    ['a tag name', `/api/v1/series${qs(['metric', 'm'], ['tag', `$${LONG}:v`])}`],
    ['a duration', `/api/v1/window${qs(['metric', 'm'], ['field', 'f'], ['last', LONG])}`],
    [
      'a window series',
      `/api/v1/window${qs(['series', `m|${LONG}`], ['field', 'f'], ['last', '5m'])}`,
    ],
    [
      'a level',
      `/api/v1/points${qs(['series', 'm|a=b'], ['field', 'f'], ['last', '5m'], ['level', LONG])}`,
    ],
    [
      'a time zone',
      `/api/v1/window${qs(['metric', 'm'], ['field', 'f'], ['last', '5m'], ['tz', LONG])}`,
    ],
    ['a route', `/api/v1/${LONG}`],
    ['a malformed URL', `/api/v1/%zz${LONG}`],
    ['a Prometheus time', `/prometheus/api/v1/query${qs(['query', 'up'], ['time', LONG])}`],
    [
      'a Prometheus step',
      `/prometheus/api/v1/query_range${qs(['query', 'up'], ['start', 0], ['end', 10], ['step', LONG])}`,
    ],
    ['a Prometheus label', `/prometheus/api/v1/label/${LONG}/values`],
    ['a Prometheus selector', `/prometheus/api/v1/series${qs(['match[]', `{${LONG}`])}`],
  ])('cuts %s', async (_what, path) => {
    const answer = await api.get(path);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.text.length).toBeLessThan(MAX_BODY_CHARS);
    expect(answer.text).not.toContain('x'.repeat(CUT_CHARS + 1));
    const body = answer.body as Record<string, unknown>;
    if (path.startsWith('/prometheus/'))
      expect(body).toMatchObject({ status: 'error', errorType: 'bad_data' });
    else expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
