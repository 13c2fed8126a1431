// One draw: the chosen series, field and range, read at the chart's resolution (or raw), with
// the series' freshness beside it; the outcome published on #chart (chart-status.ts).

import { ApiError, isAbort, type ApiGet } from './api-client.js';
import type { CandlesResponse, PointsResponse, RawResponse } from './api-types.js';
import type { ChartStatus } from './chart-status.js';
import type { ChartView } from './chart-view.js';
import { kindFor, maxPointsForWidth, selectedRange, type Kind } from './controls.js';
import { formatStep, formatTime } from './format.js';
import type { FreshnessTable } from './freshness-table.js';
import type { Legend } from './legend.js';
import type { MessageLine } from './messages.js';
import type { Page } from './page.js';
import type { QueryFacts } from './query-facts.js';
import type { ReportError } from './report-error.js';
import type { SeriesPicker } from './series-picker.js';
import type { Session } from './session.js';

export interface ChartQuery {
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
  maxPoints: number;
  kind: Kind;
}

/** The latest draw that showed data: what was asked, what came back, the legend's summary. */
export interface LastDrawn {
  query: ChartQuery;
  result: PointsResponse | CandlesResponse | RawResponse;
  summary: string;
}

export interface ChartDrawsDeps {
  ui: Page;
  api: ApiGet;
  session: Session;
  picker: SeriesPicker;
  view: ChartView;
  legend: Legend;
  facts: QueryFacts;
  freshness: FreshnessTable;
  status: ChartStatus;
  messages: MessageLine;
  report: ReportError;
}

export class ChartDraws {
  /** The draw in flight: a newer one aborts it. */
  #drawing: AbortController | undefined;
  #draws = 0;
  #last: LastDrawn | undefined;

  constructor(private readonly deps: ChartDrawsDeps) {}

  get last(): LastDrawn | undefined {
    return this.#last;
  }

  async draw(): Promise<void> {
    const { ui, api, session, picker, status, messages } = this.deps;
    this.#drawing?.abort();
    const info = picker.selected();
    const field = ui.field.value;
    if (!session.token || !info || !field) {
      this.#clear();
      ui.title.textContent = 'No series selected';
      status.setOverlay(
        !session.token
          ? 'Enter an API token to begin.'
          : picker.list.length === 0
            ? 'No series match: change the metric or tag filter.'
            : 'Choose a series and a field to draw.',
      );
      status.publish({ draws: ++this.#draws });
      status.setState('idle');
      return;
    }
    const { fromMs, toMs } = selectedRange(ui);
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || fromMs >= toMs) {
      this.#clear();
      status.setOverlay('Choose a custom range whose start is before its end.');
      messages.show('Choose a custom range whose start is before its end.');
      status.publish({ draws: ++this.#draws });
      status.setState('error');
      return;
    }
    const controller = new AbortController();
    this.#drawing = controller;
    const query: ChartQuery = {
      series: info.series,
      field,
      fromMs,
      toMs,
      maxPoints: maxPointsForWidth(ui.chart),
      kind: kindFor(ui, info),
    };
    status.setState('loading');
    status.publish({ series: query.series, field: query.field, kind: query.kind });
    ui.title.textContent = `${info.series} · ${field}`;
    const params = {
      series: query.series,
      field: query.field,
      from: query.fromMs,
      to: query.toMs,
      maxPoints: query.maxPoints,
    };
    const { signal } = controller;
    const [range, statusAnswer] = await Promise.allSettled([
      query.kind === 'raw'
        ? api(
            'raw',
            { series: query.series, field: query.field, from: query.fromMs, to: query.toMs },
            signal,
          )
        : query.kind === 'candles'
          ? api('candles', params, signal)
          : api('points', params, signal),
      api('status', { series: query.series }, signal),
    ]);
    if (this.#drawing !== controller) return; // a newer draw took over
    if (statusAnswer.status === 'fulfilled') this.deps.freshness.show(statusAnswer.value);
    else if (!isAbort(statusAnswer.reason))
      this.deps.freshness.show(
        undefined,
        statusAnswer.reason instanceof ApiError
          ? `status unavailable: ${statusAnswer.reason.message}`
          : 'status unavailable',
      );
    if (range.status === 'rejected') {
      if (!isAbort(range.reason)) this.#fail(range.reason, query);
      return;
    }
    try {
      this.#render(query, range.value);
    } catch (err) {
      this.#fail(err, query);
    }
  }

  /** Empties the chart and the facts, so nothing stale shows under a message. */
  #clear(): void {
    this.deps.facts.clear();
    this.deps.view.clear();
    this.#last = undefined;
    this.deps.legend.clear();
    this.deps.status.publish({ points: 0, gaps: 0, whitespace: 0, notFinal: 0, neighbours: 0 });
  }

  #fail(err: unknown, query: ChartQuery): void {
    const { status } = this.deps;
    this.#clear();
    status.publish({ draws: ++this.#draws });
    status.setOverlay('Could not draw this series.');
    this.deps.report(err, `drawing ${query.series}`);
    status.setState('error');
  }

  #render(query: ChartQuery, result: PointsResponse | CandlesResponse | RawResponse): void {
    if (!('resolution' in result)) return this.#renderRaw(query, result);
    const { view, facts, legend, status, messages } = this.deps;
    const counts = 'candles' in result ? view.drawCandles(result) : view.drawLine(result);
    view.fit();
    facts.show(result, counts);
    const { stepMs, source } = result.resolution;
    const summary = `${formatStep(stepMs)} ${query.kind === 'candles' ? 'candles' : 'average'} · ${formatTime(result.fromMs)} → ${formatTime(result.toMs)} UTC`;
    this.#last = { query, result, summary };
    legend.summarize(summary);
    status.setOverlay(counts.drawn === 0 ? 'No data in this range.' : null);
    messages.clearError();
    status.publish({
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
      draws: ++this.#draws,
    });
    status.setState('ready');
  }

  #renderRaw(query: ChartQuery, result: RawResponse): void {
    const { view, facts, legend, status, messages } = this.deps;
    const counts = view.drawRaw(result, query.field);
    if (counts.drawn + counts.neighbours > 0) view.showRange(result.fromMs, result.toMs);
    facts.showRaw(result, counts);
    const summary = `raw ticks · ${formatTime(result.fromMs)} → ${formatTime(result.toMs)} UTC`;
    this.#last = { query, result, summary };
    legend.summarize(summary);
    status.setOverlay(
      counts.drawn + counts.neighbours === 0
        ? 'No tick stored in or around this range.'
        : counts.drawn === 0
          ? 'No tick in this range: the line joins the nearest ticks on either side.'
          : null,
    );
    messages.clearError();
    status.publish({
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
      draws: ++this.#draws,
    });
    status.setState('ready');
  }
}
