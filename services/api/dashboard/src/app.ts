// The analysts' dashboard: one series, one field, a time range, drawn at the finest width the
// chart can show, the series' freshness, and one number per series across a metric. This module
// puts the parts together and wires the page's controls to them.
//
// For tests and debugging, #chart carries the outcome of the latest draw in data attributes
// (chart-status.ts), #compare that of the latest comparison (compare.ts), and
// `window.tickertapeChart` holds the chart, its main and gap series, the last query with its
// response, the last status and comparison.

import { apiClient } from './api-client.js';
import { ChartDraws } from './chart-draws.js';
import { ChartStatus } from './chart-status.js';
import { ChartView } from './chart-view.js';
import { Comparison, type CompareQuery } from './compare.js';
import { maxPointsForWidth, syncRangeInputs } from './controls.js';
import { SECOND } from './format.js';
import { FreshnessTable } from './freshness-table.js';
import { Legend } from './legend.js';
import { MessageLine } from './messages.js';
import { findPage } from './page.js';
import { QueryFacts } from './query-facts.js';
import { errorReporter } from './report-error.js';
import { SeriesPicker } from './series-picker.js';
import { Session } from './session.js';

const LIVE_EVERY_MS = 30 * SECOND;
const AGES_EVERY_MS = 5 * SECOND;
/** A resize settles for this long before the chart is drawn again at its new width. */
const RESIZE_SETTLE_MS = 300;

const ui = findPage();
const session = Session.fromLocation();
const api = apiClient(() => session.token);
const messages = new MessageLine(ui.message);
const status = new ChartStatus(ui.chart, ui.overlay);
const report = errorReporter({ session, messages, status, tokenInput: ui.token });
const legend = new Legend(ui.legend);
const view = new ChartView(ui.chart, ui.key, legend);
const freshness = new FreshnessTable(ui.freshness);
const picker: SeriesPicker = new SeriesPicker({
  ui,
  api,
  session,
  messages,
  status,
  report,
  draw: () => draws.draw(),
});
const draws = new ChartDraws({
  ui,
  api,
  session,
  picker,
  view,
  legend,
  facts: new QueryFacts(ui),
  freshness,
  status,
  messages,
  report,
});
const draw = () => draws.draw();
const listSeries = (prefer?: string) => picker.listSeries(prefer);

/** The metric typed above, else the chosen series' own; the tag typed; the field chosen. */
function compareQuery(): CompareQuery | string {
  if (!session.token) return 'Enter an API token first.';
  const metric = ui.metric.value.trim() || picker.selected()?.metric;
  if (!metric) return 'Type a metric above (or choose a series): every series of it is compared.';
  const field = ui.field.value;
  if (!field) return 'Choose a field above.';
  return { metric, tag: ui.tag.value.trim(), field };
}

/** Draws a series picked in the comparison, listing it first when the list lacks it. */
function pickSeries(series: string): void {
  if (!picker.list.some((s) => s.series === series)) {
    void listSeries(series);
    return;
  }
  ui.series.value = series;
  picker.fillFields();
  void draw();
}

const compare = new Comparison({
  table: ui.compareTable,
  facts: ui.compareFacts,
  last: ui.compareLast,
  get: api,
  query: compareQuery,
  pick: pickSeries,
  failed: report,
});

/**
 * The resolution follows the chart's width: when it changes by more than a quarter since the
 * last draw (a resized window, a rotated tablet), draw again once the resizing settles.
 */
function watchWidth(): void {
  let settle: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    const drawnFor = draws.last?.query.maxPoints;
    if (drawnFor === undefined) return;
    if (Math.abs(maxPointsForWidth(ui.chart) - drawnFor) <= drawnFor / 4) return;
    clearTimeout(settle);
    settle = setTimeout(() => void draw(), RESIZE_SETTLE_MS);
  }).observe(ui.chart);
}

let liveTimer: ReturnType<typeof setInterval> | undefined;

function syncLive(): void {
  if (liveTimer !== undefined) clearInterval(liveTimer);
  liveTimer = ui.live.checked
    ? setInterval(() => {
        void draw();
        if (compare.shown) void compare.run();
      }, LIVE_EVERY_MS)
    : undefined;
}

function wireControls(): void {
  ui.tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = ui.token.value.trim();
    if (!value) {
      messages.show('Enter a token first.');
      return;
    }
    session.use(value);
    ui.token.value = '';
    ui.token.placeholder = 'token set';
    messages.clear();
    void listSeries();
  });
  ui.forget.addEventListener('click', () => {
    session.forget();
    ui.token.placeholder = 'paste a token';
    messages.show('Token forgotten. Enter one to continue.', 'info');
  });
  ui.find.addEventListener('click', () => void listSeries());
  for (const input of [ui.metric, ui.tag])
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      void listSeries();
    });
  ui.series.addEventListener('change', () => {
    picker.fillFields();
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
    syncRangeInputs(ui);
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
}

function start(): void {
  syncRangeInputs(ui);
  wireControls();
  setInterval(() => freshness.tickAges(), AGES_EVERY_MS);
  watchWidth();

  Object.defineProperty(window, 'tickertapeChart', {
    configurable: true,
    value: {
      get chart() {
        return view.chart;
      },
      get series() {
        return view.series;
      },
      get gapSeries() {
        return view.gapSeries;
      },
      get last() {
        return draws.last;
      },
      get status() {
        return freshness.last;
      },
      get comparison() {
        return compare.last;
      },
      redraw: draw,
      listSeries,
    },
  });

  if (!session.token) {
    status.setState('idle');
    status.setOverlay('Enter an API token to begin.');
    messages.show('Enter an API token (or open the page with #token=…) to begin.', 'info');
    ui.token.focus();
    return;
  }
  ui.token.placeholder = 'token set';
  status.setOverlay('Loading…');
  void listSeries();
}

start();
