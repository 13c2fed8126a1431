import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { chooseResolution, type Candle, type Gap, type Point } from '@tickertape/query';
import {
  TestStack,
  freePort,
  spawnService,
  waitFor,
  type ServiceProcess,
} from '@tickertape/testing';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Partitioners } from 'kafkajs';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  dashboardData,
  writeDashboardData,
  type DashboardData,
  type SeededSeries,
} from './fixtures.js';
import { testDatabase } from '@tickertape/store/testing';

/**
 * The dashboard in Debian's Chromium against the real API process on the real stack: buckets
 * written through the real write path, consumer groups with real commits, the page driven like
 * an analyst would, and what it draws checked point for point against the API and against the
 * ticks themselves.
 *
 * The API runs as its own process (src/main.ts through tsx, as `spawnService` starts services),
 * not through buildApp inside jest: @fastify/static requires the ESM-only content-disposition,
 * which jest 30's module system loads only on Node 24.9+.
 */

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../../../.out/screenshots/', import.meta.url));
const VIEWPORT = { width: 1280, height: 1000 };
/** Records on the test topic, and what the minute and hour groups have committed of them. */
const RECORDS = 40;
const COMMITTED = { minute: RECORDS, hour: 28 } as const;
const TIMEOUT_MS = 60_000;

/** What #chart publishes after each draw (see dashboard/app.js). */
interface ChartFacts {
  state: string;
  draws: number;
  series: string;
  field: string;
  kind: string;
  points: number;
  gaps: number;
  /** Raw points only: points drawn outside the range (the neighbours the line runs on to). */
  neighbours: number;
  whitespace: number;
  notFinal: number;
  from: number;
  to: number;
  maxPoints: number;
  stepMs: number;
  level: string;
  detail: string;
  examined: number;
}

/** A drawn entry as lightweight-charts holds it (whitespace is not among them). */
interface DrawnEntry {
  time: number;
  value?: number;
  open?: number;
  high?: number;
  low?: number;
  close?: number;
  color?: string;
}

interface Drawn {
  type: string;
  entries: DrawnEntry[];
  /** Chart times (s) of the shaded gap steps. */
  gapTimes: number[];
}

interface RangeBody {
  fromMs: number;
  toMs: number;
  resolution: { stepMs: number; source: { level: string; detail: string } };
  gaps: Gap[];
  examined: number;
}

async function facts(page: Page): Promise<ChartFacts> {
  const raw = await page.evaluate<Record<string, string>>(
    `({ ...document.querySelector('#chart').dataset })`,
  );
  const num = (key: string) => Number(raw[key] ?? NaN);
  return {
    state: raw.state ?? '',
    draws: Number(raw.draws ?? 0),
    series: raw.series ?? '',
    field: raw.field ?? '',
    kind: raw.kind ?? '',
    points: num('points'),
    gaps: num('gaps'),
    neighbours: num('neighbours'),
    whitespace: num('whitespace'),
    notFinal: num('notFinal'),
    from: num('from'),
    to: num('to'),
    maxPoints: num('maxPoints'),
    stepMs: num('stepMs'),
    level: raw.level ?? '',
    detail: raw.detail ?? '',
    examined: num('examined'),
  };
}

/** The page's document as far as the predicates below need it (the tests compile without DOM types). */
interface PageGlobals {
  document: { querySelector(selector: string): { dataset: Record<string, string> } | null };
}

/**
 * Waits until the element's `data-<counter>` passes `after` and its `data-state` is settled (not
 * loading). A function, not a string: Playwright evals a string predicate in the page, which the
 * API's Content-Security-Policy (no 'unsafe-eval') refuses, as it should.
 */
async function settled(page: Page, selector: string, counter: string, after: number) {
  await page.waitForFunction(
    ([selected, key, newerThan]: [string, string, number]) => {
      const d = (globalThis as unknown as PageGlobals).document.querySelector(selected)?.dataset;
      return !!d && Number(d[key] ?? 0) > newerThan && d.state !== 'loading';
    },
    [selector, counter, after] as [string, string, number],
    { timeout: 20_000 },
  );
}

/** Waits until #chart has finished a draw newer than `after` (ready, idle or error). */
async function drawn(page: Page, after: number): Promise<ChartFacts> {
  await settled(page, '#chart', 'draws', after);
  return facts(page);
}

/** Does `action` on the page and returns the facts of the draw it caused. */
async function redraw(page: Page, action: () => Promise<unknown>): Promise<ChartFacts> {
  const before = (await facts(page)).draws;
  await action();
  return drawn(page, before);
}

async function chartContents(page: Page): Promise<Drawn> {
  return page.evaluate<Drawn>(`(() => {
    const chart = window.tickertapeChart;
    return {
      type: chart.series.seriesType(),
      entries: chart.series.data().map((e) => ({ ...e })),
      gapTimes: chart.gapSeries.data().map((e) => e.time),
    };
  })()`);
}

/** The ticks of `series` in [from, to) grouped into `stepMs` intervals, in time order. */
function bucketsOf(
  series: SeededSeries,
  field: string,
  fromMs: number,
  toMs: number,
  stepMs: number,
): { t: number; values: number[] }[] {
  const groups = new Map<number, number[]>();
  for (const tick of series.ticks) {
    if (tick.ts < fromMs || tick.ts >= toMs) continue;
    const t = Math.floor(tick.ts / stepMs) * stepMs;
    const value = tick.fields[field];
    if (value === undefined) continue;
    groups.set(t, [...(groups.get(t) ?? []), value]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([t, values]) => ({ t, values }));
}

describe('dashboard page in Chromium, on the real API and stack', () => {
  let stack: TestStack;
  let data: DashboardData;
  let service: ServiceProcess | undefined;
  const groups: string[] = [];
  let base: string;
  let browser: Browser;
  const token = randomBytes(24).toString('hex');

  const api = async <T>(path: string, params: Record<string, string | number>): Promise<T> => {
    const url = new URL(`/api/v1/${path}`, base);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  const pageErrors = new Map<Page, string[]>();
  /**
   * A fresh page (own sessionStorage) at `path`, its uncaught errors and every Content-Security-
   * Policy violation Chromium reports (a script, style or image the API's policy refused) kept
   * in pageErrors.
   */
  const openPage = async (path: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
    pageErrors.set(page, errors);
    await page.goto(`${base}${path}`);
    return page;
  };
  /** The dashboard opened with the token in the fragment. */
  const openDashboard = (fragment = `#token=${token}`): Promise<Page> =>
    openPage(`/dashboard/${fragment}`);

  const screenshot = async (page: Page, name: string) => {
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  };

  /**
   * A topic holding RECORDS records and the rollup groups' commits on it: the minute group has
   * read everything, the hour group is 12 behind, the day group has committed nothing.
   */
  const prepareLag = async (prefix: string): Promise<string> => {
    const topic = await stack.createTopic({ partitions: 1 });
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({
      topic,
      messages: Array.from({ length: RECORDS }, (_, i) => ({ value: `record ${i}` })),
    });
    await producer.disconnect();
    const admin = await stack.admin();
    for (const [level, offset] of Object.entries(COMMITTED)) {
      groups.push(`${prefix}${level}`);
      await admin.setOffsets({
        groupId: `${prefix}${level}`,
        topic,
        partitions: [{ partition: 0, offset: String(offset) }],
      });
    }
    return topic;
  };

  beforeAll(async () => {
    stack = await TestStack.open('dashboard');
    const db = testDatabase(stack);
    data = dashboardData(Date.now(), randomBytes(3).toString('hex'));
    await writeDashboardData(db, data);
    const prefix = `${stack.name('group')}-`;
    const topic = await prepareLag(prefix);

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const api = spawnService(API_DIR, {
      API_TOKENS: token,
      MONGODB_URI: stack.env.MONGODB_URI,
      MONGODB_DATABASE: db.databaseName,
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      TOPIC: topic,
      GROUP_PREFIX: prefix,
      HTTP_PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    service = api;
    await waitFor(
      async () => {
        if (api.child.exitCode !== null) throw new Error(`the API exited: ${api.output()}`);
        return (await fetch(`${base}/health`)).ok;
      },
      { description: 'the API to answer /health', timeoutMs: 45_000 },
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    if (groups.length > 0) await (await stack.admin()).deleteGroups(groups);
    await stack?.close();
  }, TIMEOUT_MS);

  it(
    'loads swagger-ui at /docs/ under the security headers: the document rendered, nothing refused',
    async () => {
      const policy = (await fetch(`${base}/docs/`)).headers.get('content-security-policy');
      expect(policy).toContain("script-src 'self'");
      const page = await openPage('/docs/');
      await page.locator('.swagger-ui .info .title').waitFor({ state: 'visible' });
      expect(await page.locator('.swagger-ui .info .title').textContent()).toContain(
        'tickertape API',
      );
      await page.locator('.opblock').first().waitFor({ state: 'visible' });
      expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
      await screenshot(page, 'docs');
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  it(
    'draws a series with a hole as a broken line, point for point with the API and the ticks',
    async () => {
      const page = await openDashboard();
      // The token left the address bar as soon as the page read it.
      expect(new URL(page.url()).hash).toBe('');
      await page.locator(`select#series option[value="${data.gappy.key}"]`).waitFor({
        state: 'attached',
      });
      await drawn(page, 0);
      await redraw(page, () => page.selectOption('select#range', '15m'));
      const chart = await redraw(page, () => page.selectOption('select#series', data.gappy.key));
      const last = await redraw(page, () => page.selectOption('select#range', '1h'));
      expect(chart.series).toBe(data.gappy.key);
      expect(last).toMatchObject({
        state: 'ready',
        series: data.gappy.key,
        field: 'speed',
        kind: 'line',
      });
      expect(last.to - last.from).toBe(3_600_000);

      // The resolution the page was given is the one the reader picks for its maxPoints.
      const expected = chooseResolution(last.from, last.to, last.maxPoints, LEVELS);
      expect(last.stepMs).toBe(expected.stepMs);
      expect(last.level).toBe(expected.source.level);
      expect(await page.locator('#resolution').textContent()).toContain('10 s');

      // Same query straight to the API: the page drew exactly its points.
      const body = await api<RangeBody & { points: Point[] }>('points', {
        series: data.gappy.key,
        field: 'speed',
        from: last.from,
        to: last.to,
        maxPoints: last.maxPoints,
      });
      expect(body.resolution.stepMs).toBe(last.stepMs);
      expect(last.points).toBe(body.points.length);
      expect(last.gaps).toBe(body.gaps.length);
      expect(last.examined).toBe(body.examined);
      expect(last.notFinal).toBe(body.points.filter((p) => !p.final).length);

      // ... and the number the ticks make at that width, with the same averages.
      const buckets = bucketsOf(data.gappy, 'speed', last.from, last.to, last.stepMs);
      expect(last.points).toBe(buckets.length);
      const contents = await chartContents(page);
      expect(contents.type).toBe('Line');
      expect(contents.entries).toHaveLength(buckets.length);
      contents.entries.forEach((entry, i) => {
        const bucket = buckets[i]!;
        expect(entry.time * 1000).toBe(bucket.t);
        const avg = bucket.values.reduce((a, b) => a + b, 0) / bucket.values.length;
        expect(entry.value).toBeCloseTo(avg, 9);
      });

      // The hole is a gap: reported, listed, shaded step by step, and the line does not cross it
      // (the point before it is transparent, so the segment over the hole is invisible).
      expect(body.gaps).toContainEqual({ from: data.hole.from, to: data.hole.to });
      expect(last.gaps).toBeGreaterThanOrEqual(1);
      expect(await page.locator('#gap-list li').count()).toBe(body.gaps.length);
      const holeSteps = (data.hole.to - data.hole.from) / last.stepMs;
      const shaded = contents.gapTimes.filter(
        (t) => t * 1000 >= data.hole.from && t * 1000 < data.hole.to,
      );
      expect(shaded).toHaveLength(holeSteps);
      expect(last.whitespace).toBe(contents.gapTimes.length);
      const beforeHole = contents.entries.find(
        (e) => (e.time + last.stepMs / 1000) * 1000 === data.hole.from,
      );
      expect(beforeHole?.color).toBe('transparent');

      // Points not final are drawn in another colour: the watermark splits the hour.
      expect(last.notFinal).toBeGreaterThan(0);
      expect(last.notFinal).toBeLessThan(last.points);
      body.points.forEach((point, i) => {
        const colour = contents.entries[i]!.color;
        if (colour !== 'transparent') expect(colour).toBe(point.final ? '#2563eb' : '#f59e0b');
      });

      // Freshness per level: newest event, final or not, consumer lag.
      const minuteRow = page.locator('#freshness tbody tr[data-level="minute"]');
      const newest = Math.max(...data.gappy.ticks.map((t) => t.ts));
      await expect(minuteRow.textContent()).resolves.toContain(
        new Date(newest).toISOString().slice(0, 19).replace('T', ' '),
      );
      // Consumer lag from the groups' real commits on the topic.
      const lagOf = (level: string) =>
        page.locator(`#freshness tbody tr[data-level="${level}"] td`).last().textContent();
      await expect(lagOf('minute')).resolves.toBe('0 records');
      await expect(lagOf('hour')).resolves.toBe(`${RECORDS - COMMITTED.hour} records`);
      await expect(lagOf('day')).resolves.toBe(`${RECORDS} records`);

      await screenshot(page, 'dashboard-line-gaps');
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  it(
    'draws stock ticks as candles, each one the open/high/low/close of its ticks',
    async () => {
      const page = await openDashboard();
      await page.locator(`select#series option[value="${data.stock.key}"]`).waitFor({
        state: 'attached',
      });
      await drawn(page, 0);
      const chart = await redraw(page, () => page.selectOption('select#series', data.stock.key));
      expect(chart).toMatchObject({ state: 'ready', series: data.stock.key, kind: 'candles' });
      expect(chart.field).toBe('price');

      const body = await api<RangeBody & { candles: Candle[] }>('candles', {
        series: data.stock.key,
        field: 'price',
        from: chart.from,
        to: chart.to,
        maxPoints: chart.maxPoints,
      });
      expect(chart.points).toBe(body.candles.length);
      expect(chart.gaps).toBe(body.gaps.length);

      const buckets = bucketsOf(data.stock, 'price', chart.from, chart.to, chart.stepMs);
      const contents = await chartContents(page);
      expect(contents.type).toBe('Candlestick');
      expect(contents.entries).toHaveLength(buckets.length);
      contents.entries.forEach((entry, i) => {
        const { t, values } = buckets[i]!;
        expect({
          t: entry.time * 1000,
          o: entry.open,
          h: entry.high,
          l: entry.low,
          c: entry.close,
        }).toEqual({
          t,
          o: values[0],
          h: Math.max(...values),
          l: Math.min(...values),
          c: values[values.length - 1],
        });
      });
      // Candles not final yet are hollow.
      const hollow = contents.entries.filter((e) => e.color === 'rgba(255, 255, 255, 0)').length;
      expect(hollow).toBe(body.candles.filter((c) => !c.final).length);
      expect(hollow).toBeGreaterThan(0);

      // The toggle draws the same series as a line.
      const line = await redraw(page, () => page.selectOption('select#view', 'line'));
      expect(line).toMatchObject({ state: 'ready', kind: 'line', series: data.stock.key });
      expect((await chartContents(page)).type).toBe('Line');
      await redraw(page, () => page.selectOption('select#view', 'auto'));

      await screenshot(page, 'dashboard-candles');
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  it(
    'finds a series by metric and tag, and draws a custom range given in the from/to inputs',
    async () => {
      const page = await openDashboard();
      await drawn(page, 0);
      await page.fill('input#metric', 'speed');
      await page.fill('input#tag', `sensor:${data.steady.tags.sensor}`);
      const listed = await redraw(page, () => page.click('#find-series'));
      expect(listed).toMatchObject({ state: 'ready', series: data.steady.key });
      await expect(page.locator('select#series option').allTextContents()).resolves.toEqual([
        data.steady.key,
      ]);

      const from = data.hole.from - 5 * 60_000;
      const to = data.hole.to + 5 * 60_000;
      const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
      await redraw(page, () => page.selectOption('select#range', 'custom'));
      await redraw(page, () => page.fill('input#from', iso(from)));
      const chart = await redraw(page, () => page.fill('input#to', iso(to)));
      expect(chart).toMatchObject({ state: 'ready', series: data.steady.key, from, to });
      expect(chart.points).toBe(bucketsOf(data.steady, 'speed', from, to, chart.stepMs).length);
      expect(chart.gaps).toBe(0);

      // A filter nothing matches empties the chart instead of leaving the last one up.
      await page.fill('input#metric', 'no.such.metric');
      const none = await redraw(page, () => page.press('input#metric', 'Enter'));
      expect(none).toMatchObject({ state: 'idle', points: 0 });
      await expect(page.locator('#chart-overlay').textContent()).resolves.toContain(
        'No series match',
      );
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  it(
    'compares every series of a metric over a window in one request, and draws the one picked',
    async () => {
      const page = await openDashboard();
      await drawn(page, 0);
      await page.fill('input#metric', 'speed');
      await redraw(page, () => page.click('#find-series'));
      const compared = async (action: () => Promise<unknown>) => {
        const before = Number(
          await page.evaluate<string>(`document.querySelector('#compare').dataset.runs ?? '0'`),
        );
        await action();
        await settled(page, '#compare', 'runs', before);
        return page.evaluate<Record<string, string>>(
          `({ ...document.querySelector('#compare').dataset })`,
        );
      };
      const cells = () =>
        page.evaluate<{ series: string; cells: string[] }[]>(
          `[...document.querySelectorAll('#compare tbody tr[data-series]')].map((tr) => ({
            series: tr.dataset.series,
            cells: [...tr.cells].map((c) => c.textContent ?? ''),
          }))`,
        );
      const readings = (series: SeededSeries, from: number, to: number) =>
        series.ticks.filter((t) => t.ts >= from && t.ts < to).length;

      const ten = await compared(() => page.click('#compare-run'));
      expect(ten).toMatchObject({ state: 'ready', metric: 'speed', field: 'speed', rows: '2' });
      const from = Number(ten.from);
      const to = Number(ten.to);
      expect(to - from).toBe(10 * 60_000);
      // The same request straight to the API: the page shows its rows and its cost.
      const body = await api<{ rows: { series: string; n: number }[]; examined: number }>(
        'window',
        { metric: 'speed', field: 'speed', last: '10m', limit: 100 },
      );
      expect(Number(ten.examined)).toBe(body.examined);
      const shown = await cells();
      expect(shown.map((r) => r.series)).toEqual([data.gappy.key, data.steady.key].sort());
      for (const row of shown) {
        const series = row.series === data.gappy.key ? data.gappy : data.steady;
        expect(row.cells[1]).toBe(String(readings(series, from, to)));
      }
      await expect(page.locator('#compare-facts').textContent()).resolves.toMatch(
        /^2 series of speed, speed from .+; \d+ documents? examined$/,
      );

      // An hour holds the gappy sensor's ten silent minutes: fewer readings than the steady one.
      const hour = await compared(() => page.selectOption('select#compare-last', '1h'));
      expect(Number(hour.to) - Number(hour.from)).toBe(60 * 60_000);
      const hourly = await cells();
      const count = (key: string) => Number(hourly.find((r) => r.series === key)?.cells[1]);
      expect(count(data.gappy.key)).toBe(readings(data.gappy, Number(hour.from), Number(hour.to)));
      expect(count(data.gappy.key)).toBeLessThan(count(data.steady.key));
      await screenshot(page, 'dashboard-compare');

      // Picking a row draws that series above.
      const other = (await facts(page)).series === data.gappy.key ? data.steady : data.gappy;
      const chart = await redraw(page, () =>
        page.click(`#compare tr[data-series="${other.key}"] button`),
      );
      expect(chart).toMatchObject({ state: 'ready', series: other.key });

      // A metric nobody publishes is named as unknown (a 404), never shown as empty data.
      await page.fill('input#metric', 'no.such.metric');
      const none = await compared(() => page.click('#compare-run'));
      expect(none).toMatchObject({ state: 'error', rows: '0' });
      await expect(page.locator('#compare tbody').textContent()).resolves.toContain(
        'unknown metric "no.such.metric"',
      );
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  it(
    'draws raw points as dots on a line that runs on to the nearest tick outside the range',
    async () => {
      const page = await openDashboard();
      await page.locator(`select#series option[value="${data.gappy.key}"]`).waitFor({
        state: 'attached',
      });
      await drawn(page, 0);
      await redraw(page, () => page.selectOption('select#series', data.gappy.key));
      await redraw(page, () => page.selectOption('select#range', 'custom'));
      const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
      /** Sets the custom range, then returns the facts of the draw the last change caused. */
      const rangeOf = async (from: number, to: number) => {
        await redraw(page, () => page.fill('input#from', iso(from)));
        return redraw(page, () => page.fill('input#to', iso(to)));
      };
      /** What the chart holds: ticks as [ms, value], and the visible time range in ms. */
      const rawContents = () =>
        page.evaluate<{
          ticks: [number, number][];
          visible: { from: number; to: number };
        }>(`(() => {
          const chart = window.tickertapeChart;
          const range = chart.chart.timeScale().getVisibleRange();
          return {
            ticks: chart.series.data().filter((e) => e.value !== undefined)
              .map((e) => [Math.round(e.time * 1000), e.value]),
            visible: { from: Math.round(range.from * 1000), to: Math.round(range.to * 1000) },
          };
        })()`);
      /** The ticks of the gappy sensor the chart must hold: the range's and one on each side. */
      const expectedTicks = (from: number, to: number) => {
        const ticks = data.gappy.ticks;
        const inside = ticks.filter((t) => t.ts >= from && t.ts < to);
        const before = ticks.filter((t) => t.ts < from).at(-1)!;
        const after = ticks.find((t) => t.ts >= to)!;
        return {
          inside: inside.length,
          all: [before, ...inside, after].map((t): [number, number] => [t.ts, t.fields.speed!]),
        };
      };

      // Three minutes starting 2 s after a tick (ticks every 5 s): a neighbour on both sides.
      const from = data.hole.to + 62_000;
      const to = from + 180_000;
      await rangeOf(from, to);
      const chart = await redraw(page, () => page.check('input#raw'));
      const want = expectedTicks(from, to);
      expect(want.inside).toBe(36);
      expect(chart).toMatchObject({
        state: 'ready',
        kind: 'raw',
        series: data.gappy.key,
        field: 'speed',
        from,
        to,
        points: want.inside,
        neighbours: 2,
        whitespace: 2,
      });
      const body = await api<{ points: unknown[]; examined: number }>('raw', {
        series: data.gappy.key,
        field: 'speed',
        from,
        to,
      });
      expect(body.points).toHaveLength(want.inside);
      expect(chart.examined).toBe(body.examined);
      const contents = await rawContents();
      expect(contents.ticks).toEqual(want.all);
      // The view is the range itself: the neighbours lie just past its edges.
      expect(contents.visible).toEqual({ from, to });
      expect(
        await page.evaluate(`window.tickertapeChart.series.options().pointMarkersVisible`),
      ).toBe(true);
      await expect(page.locator('select#view').isDisabled()).resolves.toBe(true);
      await expect(page.locator('#resolution').textContent()).resolves.toBe('every tick (raw)');
      await expect(page.locator('#point-count').textContent()).resolves.toBe(
        '36 + 2 outside the range',
      );
      await screenshot(page, 'dashboard-raw');

      // Inside the hole: no tick in the range, and still a line from edge to edge.
      const quiet = await rangeOf(data.hole.from + 120_000, data.hole.to - 120_000);
      expect(quiet).toMatchObject({ state: 'ready', kind: 'raw', points: 0, neighbours: 2 });
      const across = await rawContents();
      expect(across.ticks).toEqual(
        expectedTicks(data.hole.from + 120_000, data.hole.to - 120_000).all,
      );
      expect(across.ticks.map(([t]) => t)).toEqual([data.hole.from - 5000, data.hole.to]);
      await expect(page.locator('#chart-overlay').textContent()).resolves.toContain(
        'joins the nearest ticks on either side',
      );

      // Off again: the rollups' line.
      const line = await redraw(page, () => page.uncheck('input#raw'));
      expect(line).toMatchObject({ state: 'ready', kind: 'line', neighbours: 0 });
      await expect(page.locator('select#view').isDisabled()).resolves.toBe(false);
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  it(
    'says so when the API refuses the token',
    async () => {
      const page = await openDashboard(`#token=${'x'.repeat(32)}`);
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelector('#chart')?.dataset.state ===
          'error',
      );
      const message = page.locator('#message');
      await expect(message.isVisible()).resolves.toBe(true);
      await expect(message.textContent()).resolves.toContain('refused the token (401');
      await expect(page.locator('select#series').isDisabled()).resolves.toBe(true);
      await screenshot(page, 'dashboard-refused-token');

      // Entering the right token recovers without a reload.
      await page.fill('input#token', token);
      await page.click('#token-form button[type="submit"]');
      const chart = await drawn(page, 0);
      expect(chart.state).toBe('ready');
      await expect(message.isVisible()).resolves.toBe(false);
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );
});
