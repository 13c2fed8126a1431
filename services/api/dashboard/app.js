// @ts-check
// The analysts' dashboard: one series, one field, a time range, drawn at the finest width the
// chart can show. Plain browser module, no build step; lightweight-charts comes as the global
// `LightweightCharts` from vendor/lightweight-charts.js. Type-checked by tsc (checkJs, see
// tsconfig.json beside it).
//
// For tests and debugging, #chart carries the outcome of the latest draw in data attributes
// (state 'idle' | 'loading' | 'ready' | 'error', points, gaps, whitespace, notFinal, kind,
// series, field, from, to, maxPoints, stepMs, level, detail, examined, draws; `points` counts
// drawn entries, never whitespace; with raw points, `neighbours` counts the points drawn outside
// the range) and `window.tickertapeChart` holds the chart, its main and gap series, the last
// query with its response, and the last status. The "across series" table lives in compare.js.

/**
 * @typedef {{ series: string, metric: string, tags: Record<string, string>, fields: string[], lastSlotMs: number }} SeriesInfo
 * @typedef {{ series: SeriesInfo[], level: string, examined: number, truncated: boolean }} SeriesResponse
 * @typedef {{ t: number, n: number | null, sum: number | null, min: number, max: number, open: number, close: number, avg: number, final: boolean }} Point
 * @typedef {{ t: number, open: number, high: number, low: number, close: number, volume: number | null, final: boolean }} Candle
 * @typedef {{ from: number, to: number }} Gap
 * @typedef {{ stepMs: number, source: { level: string, detail: string } }} Resolution
 * @typedef {{ series: string, field: string, fromMs: number, toMs: number, resolution: Resolution, gaps: Gap[], examined: number }} RangeBase
 * @typedef {RangeBase & { points: Point[] }} PointsResponse
 * @typedef {RangeBase & { candles: Candle[] }} CandlesResponse
 * @typedef {{ level: string, latestSlotMs: number | null, freshnessMs: number | null, latestFinal: boolean, finalBefore: number | null, lag: number | null }} LevelStatus
 * @typedef {{ series: string, levels: LevelStatus[], examined: number }} StatusResponse
 * @typedef {{ t: number, v: Record<string, number> }} RawPoint
 * @typedef {{ series: string, fromMs: number, toMs: number, points: RawPoint[], before: RawPoint | null, after: RawPoint | null, examined: number }} RawResponse
 * @typedef {{ t: number, value: number, field: string, position: 'before' | 'in' | 'after' }} RawEntry
 * @typedef {'line' | 'candles' | 'raw'} Kind
 * @typedef {{ series: string, field: string, fromMs: number, toMs: number, maxPoints: number, kind: Kind }} ChartQuery
 * @typedef {import('lightweight-charts').IChartApi} IChartApi
 * @typedef {import('lightweight-charts').ISeriesApi<import('lightweight-charts').SeriesType>} AnySeriesApi
 * @typedef {import('lightweight-charts').UTCTimestamp} UTCTimestamp
 * @typedef {import('lightweight-charts').Time} Time
 */

import { comparison } from './compare.js';

const LWC = /** @type {typeof import('lightweight-charts')} */ (
  /** @type {any} */ (globalThis).LightweightCharts
);

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** @type {Record<string, number>} */
const PRESETS = { '15m': 15 * MINUTE, '1h': HOUR, '6h': 6 * HOUR, '24h': DAY, '7d': 7 * DAY };
/** Series are listed from buckets of the last 30 days (plus any custom range). */
const DISCOVERY_MS = 30 * DAY;
const SERIES_LIMIT = 500;
/** One point per this many pixels of chart width. */
const PX_PER_POINT = 3;
const LIVE_EVERY_MS = 30 * SECOND;
const TOKEN_KEY = 'tickertape.token';
/** Metrics drawn as candles when the chart is on "auto". */
const CANDLE_METRICS = new Set(['stock.tick']);

const COLORS = {
  line: '#2563eb',
  lineOpen: '#f59e0b',
  up: '#16a34a',
  down: '#dc2626',
  volume: 'rgba(100, 116, 139, 0.35)',
  gapBand: 'rgba(148, 163, 184, 0.16)',
  grid: '#eef0f4',
  text: '#334155',
  border: '#d8dde6',
};

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} type
 * @returns {T}
 */
function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page lacks #${id}`);
  return element;
}

const ui = {
  tokenForm: byId('token-form', HTMLFormElement),
  token: byId('token', HTMLInputElement),
  forget: byId('forget-token', HTMLButtonElement),
  message: byId('message', HTMLParagraphElement),
  controls: byId('controls', HTMLFormElement),
  metric: byId('metric', HTMLInputElement),
  metrics: byId('metrics', HTMLDataListElement),
  tag: byId('tag', HTMLInputElement),
  find: byId('find-series', HTMLButtonElement),
  series: byId('series', HTMLSelectElement),
  field: byId('field', HTMLSelectElement),
  range: byId('range', HTMLSelectElement),
  from: byId('from', HTMLInputElement),
  to: byId('to', HTMLInputElement),
  view: byId('view', HTMLSelectElement),
  raw: byId('raw', HTMLInputElement),
  live: byId('live', HTMLInputElement),
  title: byId('chart-title', HTMLHeadingElement),
  legend: byId('legend', HTMLParagraphElement),
  chart: byId('chart', HTMLDivElement),
  key: byId('chart-key', HTMLUListElement),
  overlay: byId('chart-overlay', HTMLParagraphElement),
  resolution: byId('resolution', HTMLElement),
  source: byId('source', HTMLElement),
  examined: byId('examined', HTMLElement),
  pointCount: byId('point-count', HTMLElement),
  openCount: byId('open-count', HTMLElement),
  gapCount: byId('gap-count', HTMLElement),
  gapList: byId('gap-list', HTMLOListElement),
  freshness: byId('freshness', HTMLTableElement),
  compareForm: byId('compare-form', HTMLFormElement),
  compareLast: byId('compare-last', HTMLSelectElement),
  compareTable: byId('compare', HTMLTableElement),
  compareFacts: byId('compare-facts', HTMLParagraphElement),
};

// ---------------------------------------------------------------------------------------------
// Formatting

/** @param {number} ms */
function formatStep(ms) {
  if (ms % DAY === 0) return `${ms / DAY} d`;
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  if (ms % SECOND === 0) return `${ms / SECOND} s`;
  return `${ms} ms`;
}

/**
 * A duration for people: "850 ms", "42 s", "5 min 3 s", "2 h 10 min", "3 d 4 h".
 * @param {number} ms
 */
function formatDuration(ms) {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (abs < SECOND) return `${sign}${Math.round(abs)} ms`;
  if (abs < MINUTE) return `${sign}${Math.round(abs / SECOND)} s`;
  /** @param {number} big @param {number} small @param {string} a @param {string} b */
  const two = (big, small, a, b) => {
    const whole = Math.floor(abs / big);
    const rest = Math.floor((abs % big) / small);
    return `${sign}${whole} ${a}${rest > 0 ? ` ${rest} ${b}` : ''}`;
  };
  if (abs < HOUR) return two(MINUTE, SECOND, 'min', 's');
  if (abs < DAY) return two(HOUR, MINUTE, 'h', 'min');
  return two(DAY, HOUR, 'd', 'h');
}

/**
 * "2026-11-21 12:10:05": an instant in UTC, as every time on the page.
 * @param {number} ms
 */
function formatTime(ms) {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** @param {number} value */
function formatNumber(value) {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 4;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** @param {number} ms → "YYYY-MM-DDTHH:MM:SS" for a datetime-local input, in UTC. */
function toInputValue(ms) {
  return new Date(ms).toISOString().slice(0, 19);
}

/** @param {string} value a datetime-local value, read as UTC */
function fromInputValue(value) {
  if (!value) return NaN;
  return Date.parse(value.length === 16 ? `${value}:00Z` : `${value}Z`);
}

/** @param {number} ms */
const toChartTime = (ms) => /** @type {UTCTimestamp} */ (Math.floor(ms / SECOND));

/** @param {Time} time */
const fromChartTime = (time) => (typeof time === 'number' ? time * SECOND : NaN);

/**
 * Raw points keep their milliseconds: lightweight-charts takes fractional seconds, so ticks in
 * the same second stay apart (rounding back on the way out undoes the float division).
 * @param {number} ms
 */
const toRawChartTime = (ms) => /** @type {UTCTimestamp} */ (ms / SECOND);

/** @param {number} ms "2026-11-21 12:10:05.250": a raw tick's time, to the millisecond. */
function formatRawTime(ms) {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
}

// ---------------------------------------------------------------------------------------------
// Messages and state

/**
 * @param {string} text
 * @param {'error' | 'info'} [kind]
 */
function showMessage(text, kind = 'error') {
  ui.message.textContent = text;
  ui.message.className = `message ${kind}`;
  ui.message.hidden = false;
}

function clearMessage() {
  ui.message.hidden = true;
  ui.message.textContent = '';
}

/** Clears an error once things work again; notices (e.g. a truncated list) stay. */
function clearError() {
  if (ui.message.classList.contains('error')) clearMessage();
}

/** @param {'idle' | 'loading' | 'ready' | 'error'} value */
function setState(value) {
  ui.chart.dataset.state = value;
  ui.chart.setAttribute('aria-busy', String(value === 'loading'));
}

/** @param {string | null} text */
function setOverlay(text) {
  ui.overlay.textContent = text ?? '';
  ui.overlay.hidden = text === null;
}

// ---------------------------------------------------------------------------------------------
// The API

class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** @param {unknown} err */
function isAbort(err) {
  return err instanceof DOMException && err.name === 'AbortError';
}

let token = '';

/**
 * GET one API resource, with the token. Relative to the page, so a proxy prefix is kept.
 * @template T
 * @param {string} path e.g. "series"
 * @param {Record<string, string | number | undefined>} params
 * @param {AbortSignal} [signal]
 * @returns {Promise<T>}
 */
async function api(path, params, signal) {
  const url = new URL(`../api/v1/${path}`, document.baseURI);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      signal,
    });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw new ApiError(0, 'UNREACHABLE', `the API did not answer: ${String(err)}`);
  }
  if (!response.ok) {
    /** @type {{ error?: unknown, message?: unknown }} */
    let body = {};
    try {
      body = await response.json();
    } catch {
      // not JSON: fall back to the status line
    }
    throw new ApiError(
      response.status,
      typeof body.error === 'string' ? body.error : String(response.status),
      typeof body.message === 'string' ? body.message : response.statusText,
    );
  }
  return /** @type {Promise<T>} */ (response.json());
}

/**
 * Shows an API failure; a refused token gets its own message and sends the user to the input.
 * @param {unknown} err
 * @param {string} doing what failed, e.g. "listing series"
 */
function reportError(err, doing) {
  if (err instanceof ApiError && err.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    token = '';
    ui.token.placeholder = 'paste a token';
    setOverlay('Enter a valid API token to continue.');
    showMessage('The API refused the token (401 Unauthorized). Check it and enter it again above.');
    ui.token.focus();
    return;
  }
  if (err instanceof ApiError && err.status === 403) {
    showMessage(`This token may not read this (403 Forbidden): ${err.message}`);
    return;
  }
  const detail = err instanceof ApiError ? `${err.message} (${err.code})` : String(err);
  showMessage(`Failed ${doing}: ${detail}`);
}

// ---------------------------------------------------------------------------------------------
// Token

function readToken() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromHash = hash.get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    // Keep the token out of the address bar, bookmarks and history.
    hash.delete('token');
    const rest = hash.toString();
    history.replaceState(
      null,
      '',
      `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`,
    );
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

// ---------------------------------------------------------------------------------------------
// Range and query

/** @returns {{ fromMs: number, toMs: number }} */
function selectedRange() {
  const preset = PRESETS[ui.range.value];
  if (preset !== undefined) {
    const toMs = Date.now();
    return { fromMs: toMs - preset, toMs };
  }
  return { fromMs: fromInputValue(ui.from.value), toMs: fromInputValue(ui.to.value) };
}

function syncRangeInputs() {
  const custom = ui.range.value === 'custom';
  ui.from.disabled = !custom;
  ui.to.disabled = !custom;
  ui.controls.classList.toggle('is-custom', custom);
  if (custom && (!ui.from.value || !ui.to.value)) {
    const toMs = Date.now();
    ui.from.value = toInputValue(toMs - HOUR);
    ui.to.value = toInputValue(toMs);
  }
  ui.live.disabled = custom;
  if (custom) ui.live.checked = false;
}

/** @returns {SeriesInfo | undefined} */
function selectedSeries() {
  return seriesList.find((s) => s.series === ui.series.value);
}

/** @param {SeriesInfo} info @returns {Kind} */
function kindFor(info) {
  if (ui.raw.checked) return 'raw';
  if (ui.view.value === 'line' || ui.view.value === 'candles') return ui.view.value;
  return CANDLE_METRICS.has(info.metric) ? 'candles' : 'line';
}

function maxPointsForWidth() {
  const width = ui.chart.clientWidth || 900;
  return Math.max(20, Math.floor(width / PX_PER_POINT));
}

// ---------------------------------------------------------------------------------------------
// Series list

/** @type {SeriesInfo[]} */
let seriesList = [];
/** @type {AbortController | undefined} */
let listing;

/** @param {string | undefined} [prefer] series to keep selected when still listed */
async function listSeries(prefer = ui.series.value) {
  if (!token) return;
  listing?.abort();
  const controller = new AbortController();
  listing = controller;
  ui.find.disabled = true;
  const now = Date.now();
  let fromMs = now - DISCOVERY_MS;
  let toMs = now + HOUR;
  if (ui.range.value === 'custom') {
    const range = selectedRange();
    if (Number.isFinite(range.fromMs)) fromMs = Math.min(fromMs, range.fromMs);
    if (Number.isFinite(range.toMs)) toMs = Math.max(toMs, range.toMs);
  }
  try {
    /** @type {SeriesResponse} */
    const found = await api(
      'series',
      {
        metric: ui.metric.value.trim(),
        tag: ui.tag.value.trim(),
        from: fromMs,
        to: toMs,
        limit: SERIES_LIMIT,
      },
      controller.signal,
    );
    seriesList = found.series;
    fillSeries(found, prefer);
    clearMessage();
    if (found.truncated)
      showMessage(
        `More series match than the ${found.series.length} listed: narrow the metric or tag filter.`,
        'info',
      );
    await draw();
  } catch (err) {
    if (isAbort(err)) return;
    setState('error');
    setOverlay('Could not list series.');
    reportError(err, 'listing series');
  } finally {
    if (listing === controller) ui.find.disabled = false;
  }
}

/**
 * @param {SeriesResponse} found
 * @param {string | undefined} prefer
 */
function fillSeries(found, prefer) {
  ui.series.replaceChildren();
  /** @type {Map<string, HTMLOptGroupElement>} */
  const groups = new Map();
  for (const info of found.series) {
    let group = groups.get(info.metric);
    if (!group) {
      group = document.createElement('optgroup');
      group.label = info.metric;
      groups.set(info.metric, group);
      ui.series.append(group);
    }
    group.append(new Option(info.series, info.series));
  }
  ui.metrics.replaceChildren(...[...groups.keys()].map((metric) => new Option(metric)));
  if (found.series.length === 0) {
    ui.series.append(new Option('no series match', ''));
    ui.series.disabled = true;
  } else {
    ui.series.disabled = false;
    const keep = found.series.some((s) => s.series === prefer);
    ui.series.value = keep && prefer ? prefer : (found.series[0]?.series ?? '');
  }
  fillFields();
}

function fillFields() {
  const info = selectedSeries();
  const previous = ui.field.value;
  ui.field.replaceChildren(...(info?.fields ?? []).map((name) => new Option(name, name)));
  ui.field.disabled = !info || info.fields.length === 0;
  if (!info) return;
  const preferred = ['price', 'value', 'avg'].find((name) => info.fields.includes(name));
  ui.field.value = info.fields.includes(previous) ? previous : (preferred ?? info.fields[0] ?? '');
}

// ---------------------------------------------------------------------------------------------
// The chart

/** @type {IChartApi | undefined} */
let chart;
/** @type {AnySeriesApi | undefined} */
let mainSeries;
/**
 * Beside the main one: dots for lone points (line), or ticks per candle (candles).
 * @type {AnySeriesApi | undefined}
 */
let extraSeries;
/**
 * Drawn points (or candles, or raw ticks) by start (ms), for the legend.
 * @type {Map<number, Point | Candle | RawEntry>}
 */
let byTime = new Map();
/** @type {Kind | undefined} */
let currentKind;
/**
 * Light bars behind the data over each step without data, whatever the kind.
 * @type {AnySeriesApi | undefined}
 */
let gapSeries;
/**
 * Starts (ms) of the steps inside gaps, for the legend.
 * @type {Set<number>}
 */
let gapTimes = new Set();

function ensureChart() {
  if (chart) return chart;
  if (!LWC) throw new Error('the chart library (vendor/lightweight-charts.js) did not load');
  chart = LWC.createChart(ui.chart, {
    autoSize: true,
    layout: {
      background: { type: LWC.ColorType.Solid, color: '#ffffff' },
      textColor: COLORS.text,
      fontFamily: getComputedStyle(document.body).fontFamily,
      attributionLogo: false,
    },
    grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
    rightPriceScale: { borderColor: COLORS.border },
    timeScale: { borderColor: COLORS.border, timeVisible: true, secondsVisible: false },
    crosshair: { mode: LWC.CrosshairMode.Normal },
    localization: {
      timeFormatter: (/** @type {Time} */ time) => `${formatTime(fromChartTime(time))} UTC`,
    },
  });
  // Added first, so drawn behind the data.
  gapSeries = chart.addSeries(LWC.HistogramSeries, {
    color: COLORS.gapBand,
    priceScaleId: 'gaps',
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('gaps').applyOptions({ scaleMargins: { top: 0, bottom: 0 }, visible: false });
  chart.subscribeCrosshairMove((param) => {
    if (param.time === undefined) return showLegend(undefined);
    const ms = fromChartTime(param.time);
    if (gapTimes.has(ms)) ui.legend.textContent = `${formatTime(ms)} UTC · no data (gap)`;
    else showLegend(byTime.get(currentKind === 'raw' ? Math.round(ms) : ms));
  });
  return chart;
}

/** @param {Kind} kind */
function ensureSeries(kind) {
  const lc = ensureChart();
  if (currentKind === kind && mainSeries) return mainSeries;
  if (mainSeries) lc.removeSeries(mainSeries);
  if (extraSeries) lc.removeSeries(extraSeries);
  extraSeries = undefined;
  // Raw ticks are seconds apart or less: the axis shows seconds for them.
  lc.applyOptions({ timeScale: { secondsVisible: kind === 'raw' } });
  if (kind === 'raw') {
    // Every tick a dot, joined by a thin line: nothing is averaged, so nothing is hidden.
    mainSeries = lc.addSeries(LWC.LineSeries, {
      color: COLORS.line,
      lineWidth: 1,
      pointMarkersVisible: true,
      pointMarkersRadius: 2.5,
      priceLineVisible: false,
      // The last entry is usually the neighbour after the range: its value on the scale would
      // read as the range's latest.
      lastValueVisible: false,
      crosshairMarkerRadius: 4,
    });
  } else if (kind === 'line') {
    mainSeries = lc.addSeries(LWC.LineSeries, {
      color: COLORS.line,
      lineWidth: 2,
      priceLineVisible: false,
      lastValueVisible: true,
      crosshairMarkerRadius: 3,
      // Fixed, not the point's colour: the point before a gap is transparent (see drawLine).
      crosshairMarkerBackgroundColor: COLORS.line,
    });
    // Points with a gap on both sides have no segment to show them: a dot each.
    extraSeries = lc.addSeries(LWC.LineSeries, {
      color: COLORS.line,
      lineVisible: false,
      pointMarkersVisible: true,
      pointMarkersRadius: 2.5,
      priceLineVisible: false,
      lastValueVisible: false,
      crosshairMarkerVisible: false,
    });
  } else {
    mainSeries = lc.addSeries(LWC.CandlestickSeries, {
      upColor: COLORS.up,
      downColor: COLORS.down,
      borderUpColor: COLORS.up,
      borderDownColor: COLORS.down,
      wickUpColor: COLORS.up,
      wickDownColor: COLORS.down,
      priceLineVisible: false,
    });
    // Ticks per candle, along the bottom fifth.
    extraSeries = lc.addSeries(LWC.HistogramSeries, {
      color: COLORS.volume,
      priceScaleId: 'ticks',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    lc.priceScale('ticks').applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } });
  }
  currentKind = kind;
  ui.key.dataset.kind = kind;
  return mainSeries;
}

/**
 * Whitespace (time only) at every step inside each gap, so the line breaks and the gap takes
 * the width its duration would: lightweight-charts spaces entries evenly, not by time.
 * @param {Gap[]} gaps
 * @param {number} stepMs
 * @param {Set<number>} taken chart times that hold data
 * @returns {{ time: UTCTimestamp }[]}
 */
function whitespaceFor(gaps, stepMs, taken) {
  /** @type {{ time: UTCTimestamp }[]} */
  const blanks = [];
  for (const gap of gaps) {
    for (let t = Math.floor(gap.from / stepMs) * stepMs; t < gap.to; t += stepMs) {
      const time = toChartTime(t);
      if (taken.has(time)) continue;
      taken.add(time);
      blanks.push({ time });
    }
  }
  return blanks;
}

/**
 * Shades the gaps' steps and remembers them for the legend.
 * @param {{ time: UTCTimestamp }[]} blanks
 */
function drawGaps(blanks) {
  gapSeries?.setData(blanks.map(({ time }) => ({ time, value: 1 })));
  gapTimes = new Set(blanks.map(({ time }) => fromChartTime(time)));
}

/**
 * @template {{ time: UTCTimestamp }} T
 * @param {T[]} rows
 */
const byTimeAsc = (rows) => rows.sort((a, b) => a.time - b.time);

/**
 * The average as a line, broken at every gap. lightweight-charts 5.2 joins a line across
 * whitespace, and strokes the segment from a point to the next in the colour of the first: so
 * the last point before a gap gets a transparent colour, and the segment over the gap vanishes
 * (whitespace still gives the gap its width). Segments from points not final yet are amber.
 * @param {PointsResponse} result
 * @returns {{ drawn: number, whitespace: number, notFinal: number }}
 */
function drawLine(result) {
  const series = /** @type {import('lightweight-charts').ISeriesApi<'Line'>} */ (
    ensureSeries('line')
  );
  const { points } = result;
  const { stepMs } = result.resolution;
  /** @param {number} i */
  const gapAfter = (i) => {
    const next = points[i + 1];
    return next !== undefined && next.t - /** @type {Point} */ (points[i]).t > stepMs;
  };
  /** @param {number} i */
  const gapBefore = (i) => i === 0 || gapAfter(i - 1);
  /** @param {Point} p */
  const colourOf = (p) => (p.final ? COLORS.line : COLORS.lineOpen);
  /** @type {import('lightweight-charts').LineData[]} */
  const rows = points.map((p, i) => ({
    time: toChartTime(p.t),
    value: p.avg,
    color: gapAfter(i) ? 'transparent' : colourOf(p),
  }));
  const lone = points
    .filter((_, i) => gapBefore(i) && (i === points.length - 1 || gapAfter(i)))
    .map((p) => ({ time: toChartTime(p.t), value: p.avg, color: colourOf(p) }));
  const taken = new Set(points.map((p) => toChartTime(p.t)));
  const blanks = whitespaceFor(result.gaps, stepMs, taken);
  series.setData(byTimeAsc(/** @type {any[]} */ ([...rows, ...blanks])));
  series.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.08 } });
  drawGaps(blanks);
  extraSeries?.setData(byTimeAsc(/** @type {any[]} */ (lone)));
  byTime = new Map(points.map((p) => [p.t, p]));
  return {
    drawn: rows.length,
    whitespace: blanks.length,
    notFinal: points.filter((p) => !p.final).length,
  };
}

/**
 * @param {CandlesResponse} result
 * @returns {{ drawn: number, whitespace: number, notFinal: number }}
 */
function drawCandles(result) {
  const series = /** @type {import('lightweight-charts').ISeriesApi<'Candlestick'>} */ (
    ensureSeries('candles')
  );
  const taken = new Set(result.candles.map((c) => toChartTime(c.t)));
  // Candles not final yet are hollow: outline and wick in the colour, body empty.
  const rows = result.candles.map((c) => ({
    time: toChartTime(c.t),
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    ...(c.final ? {} : { color: 'rgba(255, 255, 255, 0)' }),
  }));
  const blanks = whitespaceFor(result.gaps, result.resolution.stepMs, taken);
  series.setData(byTimeAsc(/** @type {any[]} */ ([...rows, ...blanks])));
  drawGaps(blanks);
  const volumes = result.candles
    .filter((c) => c.volume !== null)
    .map((c) => ({
      time: toChartTime(c.t),
      value: /** @type {number} */ (c.volume),
      color: c.close >= c.open ? 'rgba(22, 163, 74, 0.3)' : 'rgba(220, 38, 38, 0.3)',
    }));
  extraSeries?.setData(byTimeAsc(/** @type {any[]} */ (volumes)));
  // Room for the tick counts only when there are some (at second width they are unknown).
  series
    .priceScale()
    .applyOptions({ scaleMargins: { top: 0.08, bottom: volumes.length > 0 ? 0.22 : 0.08 } });
  byTime = new Map(result.candles.map((c) => [c.t, c]));
  return {
    drawn: rows.length,
    whitespace: blanks.length,
    notFinal: result.candles.filter((c) => !c.final).length,
  };
}

/**
 * Raw ticks as a line with a dot on each, from the nearest tick before the range to the nearest
 * at or after its end. Time-only entries at the range's two ends pin the visible range to it
 * exactly, so those two neighbours sit just outside the chart and the line runs on to both
 * edges instead of stopping at the first and last tick inside (the line joins across
 * whitespace). A tick without the field is left out: no value, no dot, never a 0.
 * @param {RawResponse} result
 * @param {string} field
 * @returns {{ drawn: number, neighbours: number, whitespace: number }}
 */
function drawRaw(result, field) {
  const series = /** @type {import('lightweight-charts').ISeriesApi<'Line'>} */ (
    ensureSeries('raw')
  );
  /** @type {RawEntry[]} */
  const entries = [];
  /** @param {RawPoint | null} point @param {RawEntry['position']} position */
  const add = (point, position) => {
    const value = point?.v[field];
    if (point && typeof value === 'number') entries.push({ t: point.t, value, field, position });
  };
  add(result.before, 'before');
  for (const point of result.points) add(point, 'in');
  add(result.after, 'after');
  // Two ticks of one series at the same millisecond: the later one is what the series said.
  /** @type {Map<number, RawEntry>} */
  const byMs = new Map(entries.map((e) => [e.t, e]));
  const rows = [...byMs.values()].map((e) => ({ time: toRawChartTime(e.t), value: e.value }));
  const edges = [result.fromMs, result.toMs]
    .filter((ms) => !byMs.has(ms))
    .map((ms) => ({ time: toRawChartTime(ms) }));
  series.setData(byTimeAsc(/** @type {any[]} */ ([...rows, ...edges])));
  series.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.08 } });
  drawGaps([]);
  byTime = byMs;
  const kept = [...byMs.values()];
  return {
    drawn: kept.filter((e) => e.position === 'in').length,
    neighbours: kept.filter((e) => e.position !== 'in').length,
    whitespace: edges.length,
  };
}

/** @param {Point | Candle | RawEntry | undefined} entry */
function showLegend(entry) {
  if (!entry) {
    ui.legend.textContent = lastDrawn ? lastDrawn.summary : '';
    return;
  }
  if ('position' in entry) {
    const where = { before: ' · before the range', in: '', after: ' · after the range' };
    ui.legend.textContent = `${formatRawTime(entry.t)} UTC · ${entry.field} ${formatNumber(entry.value)}${where[entry.position]}`;
    return;
  }
  const when = `${formatTime(entry.t)} UTC`;
  const final = entry.final ? 'final' : 'not final';
  if ('avg' in entry) {
    const n = entry.n === null ? '' : ` · n ${entry.n}`;
    ui.legend.textContent = `${when} · avg ${formatNumber(entry.avg)} · min ${formatNumber(entry.min)} · max ${formatNumber(entry.max)}${n} · ${final}`;
  } else {
    const ticks = entry.volume === null ? '' : ` · ${entry.volume} ticks`;
    ui.legend.textContent = `${when} · O ${formatNumber(entry.open)} H ${formatNumber(entry.high)} L ${formatNumber(entry.low)} C ${formatNumber(entry.close)}${ticks} · ${final}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Facts: resolution, gaps, freshness

/** @param {string} level @param {string} detail */
function describeSource(level, detail) {
  const sub = { minute: 'per-second values', hour: 'per-minute totals', day: 'per-hour totals' };
  return detail === 'sub'
    ? `${level} buckets, ${sub[/** @type {keyof typeof sub} */ (level)] ?? 'sub-slots'}`
    : `${level} buckets, one point per bucket`;
}

/**
 * @param {RangeBase} result
 * @param {{ drawn: number, notFinal: number }} counts
 */
function showFacts(result, counts) {
  const { stepMs, source } = result.resolution;
  ui.resolution.textContent = `${formatStep(stepMs)} per point`;
  ui.source.textContent = describeSource(source.level, source.detail);
  ui.examined.textContent = `${result.examined} document${result.examined === 1 ? '' : 's'}`;
  ui.pointCount.textContent = String(counts.drawn);
  ui.openCount.textContent = counts.notFinal === 0 ? 'none' : String(counts.notFinal);
  const missing = result.gaps.reduce((total, gap) => total + (gap.to - gap.from), 0);
  ui.gapCount.textContent =
    result.gaps.length === 0
      ? 'none'
      : `${result.gaps.length} (${formatDuration(missing)} without data)`;
  const shown = result.gaps.slice(0, 12).map((gap) => {
    const item = document.createElement('li');
    item.textContent = `${formatTime(gap.from)} → ${formatTime(gap.to)} · ${formatDuration(gap.to - gap.from)}`;
    return item;
  });
  if (result.gaps.length > shown.length) {
    const more = document.createElement('li');
    more.className = 'muted';
    more.textContent = `… and ${result.gaps.length - shown.length} more`;
    shown.push(more);
  }
  ui.gapList.replaceChildren(...shown);
}

/**
 * @param {RawResponse} result
 * @param {{ drawn: number, neighbours: number }} counts
 */
function showRawFacts(result, counts) {
  ui.resolution.textContent = 'every tick (raw)';
  ui.source.textContent = 'segment store';
  ui.examined.textContent = `${result.examined} document${result.examined === 1 ? '' : 's'}`;
  ui.pointCount.textContent =
    counts.neighbours === 0
      ? String(counts.drawn)
      : `${counts.drawn} + ${counts.neighbours} outside the range`;
  // Raw ticks are final as stored, and a silence between them is not measured in steps.
  ui.openCount.textContent = '—';
  ui.gapCount.textContent = '—';
  ui.gapList.replaceChildren();
}

function clearFacts() {
  for (const el of [
    ui.resolution,
    ui.source,
    ui.examined,
    ui.pointCount,
    ui.openCount,
    ui.gapCount,
  ])
    el.textContent = '—';
  ui.gapList.replaceChildren();
}

/**
 * Records the level's consumer group has not committed; null when the API cannot tell now.
 * @param {number | null} lag
 */
function formatLag(lag) {
  if (lag === null) return 'unknown';
  return `${lag.toLocaleString('en-US')} record${lag === 1 ? '' : 's'}`;
}

/** @type {StatusResponse | undefined} */
let lastStatus;

/** @param {StatusResponse | undefined} status @param {string} [failure] */
function showFreshness(status, failure) {
  lastStatus = status;
  const body = ui.freshness.tBodies[0] ?? ui.freshness.createTBody();
  if (!status) {
    const row = body.insertRow();
    body.replaceChildren(row);
    const cell = row.insertCell();
    cell.colSpan = 6;
    cell.className = 'muted';
    cell.textContent = failure ?? '—';
    return;
  }
  const now = Date.now();
  body.replaceChildren(
    ...status.levels.map((level) => {
      const row = document.createElement('tr');
      row.dataset.level = level.level;
      const cells = [
        level.level,
        level.freshnessMs === null ? 'no data' : `${formatTime(level.freshnessMs)}`,
        level.freshnessMs === null ? '—' : formatDuration(now - level.freshnessMs),
        level.latestSlotMs === null ? '—' : level.latestFinal ? 'final' : 'not final',
        level.finalBefore === null ? 'no watermark yet' : formatTime(level.finalBefore),
        formatLag(level.lag),
      ];
      cells.forEach((text, i) => {
        const cell = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) cell.setAttribute('scope', 'row');
        cell.textContent = text;
        if (i === 2) cell.className = 'age';
        if (i === 3) cell.className = level.latestFinal ? 'final' : 'open';
        row.append(cell);
      });
      return row;
    }),
  );
}

/** Ages move with the clock; refresh them without asking the API again. */
function tickAges() {
  if (!lastStatus) return;
  const now = Date.now();
  for (const row of ui.freshness.tBodies[0]?.rows ?? []) {
    const level = lastStatus.levels.find((l) => l.level === row.dataset.level);
    const cell = row.querySelector('.age');
    if (level && cell && level.freshnessMs !== null)
      cell.textContent = formatDuration(now - level.freshnessMs);
  }
}

// ---------------------------------------------------------------------------------------------
// One draw

/** @type {AbortController | undefined} */
let drawing;
let draws = 0;
/** @type {{ query: ChartQuery, result: PointsResponse | CandlesResponse | RawResponse, summary: string } | undefined} */
let lastDrawn;

/**
 * Publishes the outcome of a draw on #chart for tests and scripts.
 * @param {Record<string, string | number>} facts
 */
function publish(facts) {
  for (const [key, value] of Object.entries(facts)) ui.chart.dataset[key] = String(value);
}

async function draw() {
  drawing?.abort();
  const info = selectedSeries();
  const field = ui.field.value;
  if (!token || !info || !field) {
    clearChart();
    ui.title.textContent = 'No series selected';
    setOverlay(
      !token
        ? 'Enter an API token to begin.'
        : seriesList.length === 0
          ? 'No series match: change the metric or tag filter.'
          : 'Choose a series and a field to draw.',
    );
    publish({ draws: ++draws });
    setState('idle');
    return;
  }
  const { fromMs, toMs } = selectedRange();
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || fromMs >= toMs) {
    clearChart();
    setOverlay('Choose a custom range whose start is before its end.');
    showMessage('Choose a custom range whose start is before its end.');
    publish({ draws: ++draws });
    setState('error');
    return;
  }
  const controller = new AbortController();
  drawing = controller;
  /** @type {ChartQuery} */
  const query = {
    series: info.series,
    field,
    fromMs,
    toMs,
    maxPoints: maxPointsForWidth(),
    kind: kindFor(info),
  };
  setState('loading');
  publish({ series: query.series, field: query.field, kind: query.kind });
  ui.title.textContent = `${info.series} · ${field}`;
  const params = {
    series: query.series,
    field: query.field,
    from: query.fromMs,
    to: query.toMs,
    maxPoints: query.maxPoints,
  };
  const [range, status] = await Promise.allSettled([
    query.kind === 'raw'
      ? /** @type {Promise<RawResponse>} */ (
          api(
            'raw',
            { series: query.series, field: query.field, from: query.fromMs, to: query.toMs },
            controller.signal,
          )
        )
      : query.kind === 'candles'
        ? /** @type {Promise<CandlesResponse>} */ (api('candles', params, controller.signal))
        : /** @type {Promise<PointsResponse>} */ (api('points', params, controller.signal)),
    /** @type {Promise<StatusResponse>} */ (
      api('status', { series: query.series }, controller.signal)
    ),
  ]);
  if (drawing !== controller) return; // a newer draw took over
  if (status.status === 'fulfilled') showFreshness(status.value);
  else if (!isAbort(status.reason))
    showFreshness(
      undefined,
      status.reason instanceof ApiError
        ? `status unavailable: ${status.reason.message}`
        : 'status unavailable',
    );
  if (range.status === 'rejected') {
    if (!isAbort(range.reason)) failDraw(range.reason, query);
    return;
  }
  try {
    render(query, range.value);
  } catch (err) {
    failDraw(err, query);
  }
}

/** Empties the chart and the facts, so nothing stale shows under a message. */
function clearChart() {
  clearFacts();
  byTime = new Map();
  mainSeries?.setData([]);
  extraSeries?.setData([]);
  drawGaps([]);
  lastDrawn = undefined;
  ui.legend.textContent = '';
  publish({ points: 0, gaps: 0, whitespace: 0, notFinal: 0, neighbours: 0 });
}

/**
 * @param {unknown} err
 * @param {ChartQuery} query
 */
function failDraw(err, query) {
  clearChart();
  publish({ draws: ++draws });
  setOverlay('Could not draw this series.');
  reportError(err, `drawing ${query.series}`);
  setState('error');
}

/**
 * @param {ChartQuery} query
 * @param {RawResponse} result
 */
function renderRaw(query, result) {
  const counts = drawRaw(result, query.field);
  if (counts.drawn + counts.neighbours > 0)
    ensureChart()
      .timeScale()
      .setVisibleRange({ from: toRawChartTime(result.fromMs), to: toRawChartTime(result.toMs) });
  showRawFacts(result, counts);
  const summary = `raw ticks · ${formatTime(result.fromMs)} → ${formatTime(result.toMs)} UTC`;
  lastDrawn = { query, result, summary };
  ui.legend.textContent = summary;
  setOverlay(
    counts.drawn + counts.neighbours === 0
      ? 'No tick stored in or around this range.'
      : counts.drawn === 0
        ? 'No tick in this range: the line joins the nearest ticks on either side.'
        : null,
  );
  clearError();
  publish({
    points: counts.drawn,
    neighbours: counts.neighbours,
    gaps: 0,
    whitespace: counts.whitespace,
    notFinal: 0,
    from: result.fromMs,
    to: result.toMs,
    maxPoints: query.maxPoints,
    stepMs: 0,
    level: 'segments',
    detail: 'raw',
    examined: result.examined,
    draws: ++draws,
  });
  setState('ready');
}

/**
 * @param {ChartQuery} query
 * @param {PointsResponse | CandlesResponse | RawResponse} result
 */
function render(query, result) {
  if (!('resolution' in result)) return renderRaw(query, result);
  const counts =
    'candles' in result ? drawCandles(result) : drawLine(/** @type {PointsResponse} */ (result));
  ensureChart().timeScale().fitContent();
  showFacts(result, counts);
  const { stepMs, source } = result.resolution;
  const summary = `${formatStep(stepMs)} ${query.kind === 'candles' ? 'candles' : 'average'} · ${formatTime(result.fromMs)} → ${formatTime(result.toMs)} UTC`;
  lastDrawn = { query, result, summary };
  ui.legend.textContent = summary;
  setOverlay(counts.drawn === 0 ? 'No data in this range.' : null);
  clearError();
  publish({
    points: counts.drawn,
    neighbours: 0,
    gaps: result.gaps.length,
    whitespace: counts.whitespace,
    notFinal: counts.notFinal,
    from: result.fromMs,
    to: result.toMs,
    maxPoints: query.maxPoints,
    stepMs,
    level: source.level,
    detail: source.detail,
    examined: result.examined,
    draws: ++draws,
  });
  setState('ready');
}

// ---------------------------------------------------------------------------------------------
// Wiring

/**
 * The resolution follows the chart's width: when it changes by more than a quarter since the
 * last draw (a resized window, a rotated tablet), draw again once the resizing settles.
 */
function watchWidth() {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let settle;
  new ResizeObserver(() => {
    const drawnFor = lastDrawn?.query.maxPoints;
    if (drawnFor === undefined) return;
    if (Math.abs(maxPointsForWidth() - drawnFor) <= drawnFor / 4) return;
    clearTimeout(settle);
    settle = setTimeout(() => void draw(), 300);
  }).observe(ui.chart);
}

/** @type {ReturnType<typeof setInterval> | undefined} */
let liveTimer;

function syncLive() {
  if (liveTimer !== undefined) clearInterval(liveTimer);
  liveTimer = ui.live.checked
    ? setInterval(() => {
        void draw();
        if (compare.shown) void compare.run();
      }, LIVE_EVERY_MS)
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Across series

/** The metric typed above, else the chosen series' own; the tag typed; the field chosen. */
function compareQuery() {
  if (!token) return 'Enter an API token first.';
  const metric = ui.metric.value.trim() || selectedSeries()?.metric;
  if (!metric) return 'Type a metric above (or choose a series): every series of it is compared.';
  const field = ui.field.value;
  if (!field) return 'Choose a field above.';
  return { metric, tag: ui.tag.value.trim(), field };
}

/** Draws a series picked in the comparison, listing it first when the list lacks it. */
function pickSeries(/** @type {string} */ series) {
  if (!seriesList.some((s) => s.series === series)) {
    void listSeries(series);
    return;
  }
  ui.series.value = series;
  fillFields();
  void draw();
}

const compare = comparison({
  table: ui.compareTable,
  facts: ui.compareFacts,
  last: ui.compareLast,
  get: api,
  query: compareQuery,
  pick: pickSeries,
  number: formatNumber,
  time: formatTime,
  failed: reportError,
  isAbort,
});

function start() {
  token = readToken();
  syncRangeInputs();

  ui.tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = ui.token.value.trim();
    if (!value) {
      showMessage('Enter a token first.');
      return;
    }
    token = value;
    sessionStorage.setItem(TOKEN_KEY, value);
    ui.token.value = '';
    ui.token.placeholder = 'token set';
    clearMessage();
    void listSeries();
  });
  ui.forget.addEventListener('click', () => {
    token = '';
    sessionStorage.removeItem(TOKEN_KEY);
    ui.token.placeholder = 'paste a token';
    showMessage('Token forgotten. Enter one to continue.', 'info');
  });
  ui.find.addEventListener('click', () => void listSeries());
  for (const input of [ui.metric, ui.tag])
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      void listSeries();
    });
  ui.series.addEventListener('change', () => {
    fillFields();
    void draw();
  });
  ui.field.addEventListener('change', () => void draw());
  ui.view.addEventListener('change', () => void draw());
  ui.raw.addEventListener('change', () => {
    // Raw ticks are one line whatever the chart choice says.
    ui.view.disabled = ui.raw.checked;
    void draw();
  });
  ui.range.addEventListener('change', () => {
    syncRangeInputs();
    syncLive();
    void draw();
  });
  for (const input of [ui.from, ui.to]) input.addEventListener('change', () => void draw());
  ui.controls.addEventListener('submit', (event) => {
    event.preventDefault();
    void draw();
  });
  ui.live.addEventListener('change', syncLive);
  ui.compareForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void compare.run();
  });
  ui.compareLast.addEventListener('change', () => void compare.run());
  setInterval(tickAges, 5 * SECOND);
  watchWidth();

  Object.defineProperty(window, 'tickertapeChart', {
    configurable: true,
    value: {
      get chart() {
        return chart;
      },
      get series() {
        return mainSeries;
      },
      get gapSeries() {
        return gapSeries;
      },
      get last() {
        return lastDrawn;
      },
      get status() {
        return lastStatus;
      },
      get comparison() {
        return compare.last;
      },
      redraw: draw,
      listSeries,
    },
  });

  if (!token) {
    setState('idle');
    setOverlay('Enter an API token to begin.');
    showMessage('Enter an API token (or open the page with #token=…) to begin.', 'info');
    ui.token.focus();
    return;
  }
  ui.token.placeholder = 'token set';
  setOverlay('Loading…');
  void listSeries();
}

start();
