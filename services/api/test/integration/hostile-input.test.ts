/**
 * Hostile input on the real database (issue 37): what one request from a token holder may cost.
 * Prometheus' regex dialect in linear time, the bounds on a request and the settings they name,
 * no 5xx from any parameter (a fast-check property per route), Prometheus' parameter precedence,
 * and /health answering while the worst requests run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import fc from 'fast-check';
import { DEFAULT_PROM_BOUNDS } from '../../src/prometheus/bounds.js';
import { TOKEN, qs, startTestApi, type RunningApi } from '../support/api.js';
import { MINUTE, at, writeTicks, type RefTick } from '../support/ticks.js';

interface PromBody {
  status: 'success' | 'error';
  data?: { resultType: string; result: { metric: Record<string, string>; value: unknown }[] };
  errorType?: string;
  error?: string;
}

const START = at('2026-03-02T09:00:00Z');
const END = START + 30 * MINUTE;
const NOW = END + 5 * MINUTE;
const sec = (ms: number) => String(ms / 1000);
/** `a{4}(a+)+` on this took 1.8 s in JavaScript's RegExp, doubling with each character. */
const EVIL_VALUE = `${'a'.repeat(30)}!`;

/** Eight speed sensors, the ACME stock and a symbol made to make a backtracking engine stall. */
function ticks(): RefTick[] {
  const out: Omit<RefTick, 'offset'>[] = [];
  for (let ts = START; ts < END; ts += MINUTE) {
    for (let i = 0; i < 8; i++) {
      const tags = { segment: `I80_mile0${i}`, dir: i % 2 === 0 ? 'E' : 'W' };
      out.push({
        series: seriesKey('traffic', tags),
        metric: 'traffic',
        tags,
        ts: ts + i,
        fields: { speed: 50 + i },
      });
    }
    for (const symbol of ['ACME', EVIL_VALUE])
      out.push({
        series: seriesKey('stock.tick', { symbol }),
        metric: 'stock.tick',
        tags: { symbol },
        ts: ts + 10,
        fields: { price: 100 },
      });
  }
  return out.map((tick, offset) => ({ ...tick, offset }));
}

describe('hostile input', () => {
  let stack: TestStack;
  let api: RunningApi;
  /** The same data, with an answer bound of three series. */
  let small: RunningApi;

  beforeAll(async () => {
    stack = await TestStack.open('api-hostile');
    const db = testDatabase(stack);
    await writeTicks(db, ticks());
    const stores = await storesOf(db);
    await stores.rollups.advanceWatermarks({ minute: END, hour: START, day: START }, NOW);
    api = await startTestApi(stores, { reader: { now: () => NOW } });
    small = await startTestApi(stores, {
      reader: { now: () => NOW },
      promBounds: {
        ...DEFAULT_PROM_BOUNDS,
        answerSeries: { ...DEFAULT_PROM_BOUNDS.answerSeries, limit: 3 },
      },
    });
  }, 180_000);
  // Closing waits for the worst requests still in flight (a 900 KB query, 5,000 matchers).
  afterAll(async () => {
    await api?.close();
    await small?.close();
    await stack?.close();
  }, 60_000);

  const query = (q: string, on = api) =>
    on.get<PromBody>(`/prometheus/api/v1/query${qs(['query', q], ['time', sec(END)])}`);
  /** A POSTed form, with `url` parameters too, as Grafana and promtool POST. */
  const post = async (path: string, form: URLSearchParams | string, url = '') => {
    const response = await fetch(`${api.base}/prometheus/api/v1/${path}${url}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as PromBody };
  };
  const timed = async <T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> => {
    const started = performance.now();
    const value = await run();
    return { ms: performance.now() - started, value };
  };

  describe('regex matchers are RE2, as Prometheus', () => {
    it.each([
      ['stock_tick_price{symbol=~"(?i)acme"}', ['ACME']],
      ['stock_tick_price{symbol=~"[[:alpha:]]{4}"}', ['ACME']],
      ['stock_tick_price{symbol=~"AC"}', []], // anchored at both ends
      ['stock_tick_price{symbol!~"a+!"}', ['ACME']],
    ])('%s', async (q, symbols) => {
      const answer = await query(q);
      expect(answer.status).toBe(200);
      expect(answer.body.data!.result.map((r) => r.metric.symbol)).toEqual(symbols);
    });

    it.each(['stock_tick_price{symbol=~"A(?=C)ME"}', 'stock_tick_price{symbol=~"(A)\\\\1"}'])(
      'refuses %s with 400 bad_data, as Prometheus',
      async (q) => {
        const answer = await query(q);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ status: 'error', errorType: 'bad_data' });
        expect(answer.body.error).toMatch(/invalid regular expression/);
      },
    );

    it('matches a{4}(a+)+ against a 31-character value without backtracking', async () => {
      const { ms, value } = await timed(() => query('stock_tick_price{symbol=~"a{4}(a+)+"}'));
      expect(value.status).toBe(200);
      expect(value.body.data!.result).toEqual([]);
      // Generous: the database read dominates; the old engine took 1.8 s on the match alone.
      expect(ms).toBeLessThan(1000);
    });
  });

  describe('bounds, each named by its setting, before any work', () => {
    const sum = (n: number, term: string) => Array.from({ length: n }, () => term).join(' + ');

    it.each([
      [
        'a sum of 3,000 terms (was a 500)',
        sum(3000, '1'),
        /3000 terms, more than MAX_QUERY_TERMS allows \(500\)/,
      ],
      ['a sum of 2,000 terms (was a spurious syntax error)', sum(2000, '1'), /MAX_QUERY_TERMS/],
      [
        '5,000 nested parentheses',
        `${'('.repeat(5000)}1${')'.repeat(5000)}`,
        /nests brackets 5000 deep, more than MAX_QUERY_DEPTH allows \(64\)/,
      ],
      [
        '50 selectors',
        sum(50, 'traffic_speed'),
        /50 selectors, more than MAX_QUERY_SELECTORS allows \(32\)/,
      ],
    ])('refuses %s with 400', async (_what, q, message) => {
      const answer = await post('query', new URLSearchParams({ query: q, time: sec(END) }));
      expect(answer.status).toBe(400);
      expect(answer.body.errorType).toBe('bad_data');
      expect(answer.body.error).toMatch(message);
    });

    it('answers what Prometheus answers within the bounds: 500 terms, 64 parentheses, 32 selectors read at once', async () => {
      const terms = await post(
        'query',
        new URLSearchParams({ query: sum(500, '1'), time: sec(END) }),
      );
      expect(terms.body).toMatchObject({
        status: 'success',
        data: { resultType: 'scalar', result: [Number(sec(END)), '500'] },
      });
      const nested = await query(`${'('.repeat(64)}1${')'.repeat(64)}`);
      expect(nested.body.data).toEqual({ resultType: 'scalar', result: [Number(sec(END)), '1'] });
      const selectors = await query(sum(32, 'last_over_time(traffic_speed{dir="E"}[5m])'));
      expect(selectors.status).toBe(200);
      expect(selectors.body.data!.result).toHaveLength(4);
      for (const row of selectors.body.data!.result) {
        const [, value] = row.value as [number, string];
        expect(Number(value) % 32).toBe(0);
      }
    });

    it('refuses a 900 KB query at once, quoting none of it', async () => {
      const body = new URLSearchParams({
        query: `traffic_speed{segment="${'x'.repeat(900_000)}"}`,
      });
      const { ms, value } = await timed(() => post('query', body));
      expect(value.status).toBe(400);
      expect(value.body.error).toMatch(
        /^the query has 900\d+ characters, more than MAX_QUERY_LENGTH allows \(16384\)$/,
      );
      expect(value.text.length).toBeLessThan(300);
      expect(ms).toBeLessThan(1000);
    });

    it('refuses a body over Fastify’s 1 MiB bodyLimit with 413, in Prometheus’ shape', async () => {
      const answer = await post('query', new URLSearchParams({ query: 'x'.repeat(1_200_000) }));
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ status: 'error', errorType: 'bad_data' });
    });

    it('refuses 5,000 match[] before reading any (they once ran 5,000 reads in a row)', async () => {
      const form = new URLSearchParams();
      for (let i = 0; i < 5000; i++) form.append('match[]', `traffic_speed{segment="s${i}"}`);
      for (const path of ['series', 'labels']) {
        const { ms, value } = await timed(() => post(path, form));
        expect(value.status).toBe(400);
        expect(value.body.error).toBe(
          'the request has 5000 match[] parameters, more than MAX_MATCH_PARAMS allows (64)',
        );
        expect(ms).toBeLessThan(1000);
      }
    });

    it('reads 64 match[] concurrently and answers each series once', async () => {
      const form = new URLSearchParams();
      for (let i = 0; i < 64; i++)
        form.append('match[]', `traffic_speed{segment="I80_mile0${i % 8}"}`);
      const answer = await post('series', form, qs(['start', sec(START)], ['end', sec(END)]));
      expect(answer.status).toBe(200);
      expect(answer.body.data).toHaveLength(8);
    });

    it('refuses an answer of more series than MAX_ANSWER_SERIES with 422', async () => {
      const answer = await query('last_over_time(traffic_speed[5m])', small);
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ errorType: 'execution' });
      expect(answer.body.error).toMatch(
        /the answer has 8 series, more than MAX_ANSWER_SERIES allows \(3\)/,
      );
      const series = await small.get<PromBody>(
        `/prometheus/api/v1/series${qs(['match[]', 'traffic_speed{dir="E"}'], ['match[]', 'traffic_speed{dir="W"}'], ['start', sec(START)])}`,
      );
      expect(series.status).toBe(422);
      expect(series.body.error).toMatch(/MAX_ANSWER_SERIES allows \(3\)/);
    });

    it('cuts a long name in its refusal', async () => {
      const answer = await query(`rate(${'x'.repeat(10_000)}[5m])`);
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(1200);
    });
  });

  describe('no 5xx from any input', () => {
    it.each([
      [
        '/prometheus/api/v1/query',
        [
          ['query', '1'],
          ['time', '1e20'],
        ],
      ],
      [
        '/prometheus/api/v1/query',
        [
          ['query', '1'],
          ['time', '9999999999999999'],
        ],
      ],
      [
        '/prometheus/api/v1/query_range',
        [
          ['query', '1'],
          ['start', '0'],
          ['end', '1e20'],
          ['step', '1d'],
        ],
      ],
      ['/prometheus/api/v1/labels', [['start', '-1e20']]],
      [
        '/api/v1/points',
        [
          ['series', 'x'],
          ['field', 'speed'],
          ['from', '0'],
          ['to', '9999999999999999'],
        ],
      ],
      [
        '/api/v1/candles',
        [
          ['series', 'x'],
          ['field', 'speed'],
          ['from', '0'],
          ['to', '9999999999999999'],
        ],
      ],
    ] as [string, [string, string][]][])('%s with %j is a 400', async (path, pairs) => {
      const answer = await api.get<unknown>(`${path}${qs(...pairs)}`);
      expect(answer.status).toBe(400);
    });

    const instant = fc.oneof(
      fc.constantFrom(
        '1e20',
        '-1e20',
        '9999999999999999',
        '253402300800',
        'NaN',
        'Inf',
        '',
        '0x10',
      ),
      fc.double().map(String),
      fc.integer().map(String),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
    );
    const promql = fc.oneof(
      fc.constantFrom(
        'traffic_speed',
        'avg_over_time(traffic_speed[10m])',
        'sum by (dir) (traffic_speed)',
        'topk(2, traffic_speed)',
        'stock_tick_price{symbol=~"(?i)acme"}',
        'x{a=~"a(?=b)"}',
        '((((',
        '1/0',
        'traffic_speed offset -5m',
        'quantile_over_time(2, traffic_speed[1m])',
      ),
      fc.string({ maxLength: 40 }),
      fc.stringMatching(
        /^[a-z_]{1,8}(\{[a-z]{1,3}(=|!=|=~|!~)"[^"\\]{0,6}"\})?(\[[0-9]{1,4}[smhdwy]\])?$/,
      ),
    );
    const step = fc.oneof(
      fc.constantFrom('1m', '0', '-1', '1e9', '0.001', 'x'),
      fc.string({ maxLength: 6 }),
    );
    const routes: [string, fc.Arbitrary<[string, string][]>][] = [
      [
        'query',
        fc.tuple(promql, instant).map(([q, t]) => [
          ['query', q],
          ['time', t],
        ]),
      ],
      [
        'query_range',
        fc.tuple(promql, instant, instant, step).map(([q, s, e, st]) => [
          ['query', q],
          ['start', s],
          ['end', e],
          ['step', st],
        ]),
      ],
      [
        'series',
        fc.tuple(promql, instant, instant).map(([m, s, e]) => [
          ['match[]', m],
          ['start', s],
          ['end', e],
        ]),
      ],
      [
        'labels',
        fc.tuple(promql, instant).map(([m, s]) => [
          ['match[]', m],
          ['start', s],
        ]),
      ],
      [
        'label/dir/values',
        fc.tuple(promql, instant).map(([m, e]) => [
          ['match[]', m],
          ['end', e],
        ]),
      ],
      [
        'metadata',
        fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 6 })).map(([m, l]) => [
          ['metric', m],
          ['limit', l],
        ]),
      ],
    ];

    it.each(routes)(
      '/prometheus/api/v1/%s answers below 500 whatever its parameters',
      async (path, params) => {
        await fc.assert(
          fc.asyncProperty(params, fc.boolean(), async (pairs, asPost) => {
            const status =
              asPost && path !== 'label/dir/values' && path !== 'metadata'
                ? (await post(path, new URLSearchParams(pairs))).status
                : (await api.get(`/prometheus/api/v1/${path}${qs(...pairs)}`)).status;
            expect(status).toBeLessThan(500);
          }),
          { numRuns: 60, seed: 37 },
        );
      },
      120_000,
    );
  });

  describe('Prometheus parity', () => {
    it('takes the POSTed field over the URL parameter, as Go’s r.FormValue', async () => {
      const answer = await post(
        'query',
        new URLSearchParams({ query: '2', time: sec(END) }),
        qs(['query', '1'], ['time', sec(START)]),
      );
      expect(answer.body.data).toEqual({ resultType: 'scalar', result: [Number(sec(END)), '2'] });
      // The other way round is another answer, never the kept one.
      const reverse = await post(
        'query',
        new URLSearchParams({ query: '1', time: sec(END) }),
        qs(['query', '2'], ['time', sec(START)]),
      );
      expect(reverse.body.data).toEqual({ resultType: 'scalar', result: [Number(sec(END)), '1'] });
    });

    it.each([
      ['0x10', 400],
      ['1e3', 400],
      ['16.0', 400],
      ['1', 200],
    ])('/metadata?limit=%s is a %d, as strconv.Atoi reads it', async (limit, status) => {
      const answer = await api.get<PromBody>(
        `/prometheus/api/v1/metadata${qs(['limit', limit], ['start', sec(START)])}`,
      );
      expect(answer.status).toBe(status);
      if (status === 400) expect(answer.body.error).toBe('limit must be a number');
      else expect(Object.keys(answer.body.data as object)).toHaveLength(1);
    });

    it('looks at the last day without start/end (docs/analysts.md)', async () => {
      const answer = await api.get<{ data: string[] }>('/prometheus/api/v1/label/__name__/values');
      expect(answer.body.data).toEqual(['stock_tick_price', 'traffic_speed']);
    });
  });

  it('answers /health within 500 ms while the worst requests run', async () => {
    const worst = [
      post(
        'query',
        new URLSearchParams({ query: `traffic_speed{segment="${'x'.repeat(900_000)}"}` }),
      ),
      post('query', new URLSearchParams({ query: sum3000() })),
      post(
        'series',
        new URLSearchParams(
          Array.from({ length: 5000 }, (_, i): [string, string] => ['match[]', `x{a="${i}"}`]),
        ),
      ),
      query('stock_tick_price{symbol=~"a{4}(a+)+"}'),
      query(Array.from({ length: 32 }, () => 'avg_over_time(traffic_speed[30m])').join(' + ')),
    ];
    const health = await timed(() => fetch(`${api.base}/health`));
    expect(health.value.status).toBe(200);
    expect(health.ms).toBeLessThan(500);
    for (const answer of await Promise.all(worst)) expect(answer.status).toBeLessThan(500);
  });
});

function sum3000(): string {
  return Array.from({ length: 3000 }, () => '1').join('+');
}
