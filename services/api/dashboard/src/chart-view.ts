// The chart itself (lightweight-charts): one main series of the kind drawn, its companion
// (dots for lone points, or ticks per candle), and light bars over the steps without data.

import type { IChartApi, ISeriesApi, Time, UTCTimestamp } from 'lightweight-charts';
import type { CandlesResponse, PointsResponse, RawResponse } from './api-types.js';
import { chartLibrary } from './chart-library.js';
import {
  COLORS,
  byTimeAsc,
  candleEntries,
  fromChartTime,
  lineEntries,
  rawEntries,
  toRawChartTime,
} from './chart-data.js';
import type { Kind } from './controls.js';
import { formatTime } from './format.js';
import type { Drawn, Legend } from './legend.js';

type Shown =
  | { kind: 'line'; main: ISeriesApi<'Line'>; extra: ISeriesApi<'Line'> }
  | { kind: 'raw'; main: ISeriesApi<'Line'>; extra?: undefined }
  | { kind: 'candles'; main: ISeriesApi<'Candlestick'>; extra: ISeriesApi<'Histogram'> };

export interface DrawCounts {
  /** Entries drawn, whitespace not counted. */
  drawn: number;
  whitespace: number;
  notFinal: number;
}

export interface RawCounts {
  drawn: number;
  neighbours: number;
  whitespace: number;
}

const MARGINS = { top: 0.08, bottom: 0.08 };

export class ChartView {
  #chart: IChartApi | undefined;
  /** Light bars behind the data over each step without data, whatever the kind. */
  #gapSeries: ISeriesApi<'Histogram'> | undefined;
  #shown: Shown | undefined;
  /** Drawn points (or candles, or raw ticks) by start (ms), for the legend. */
  #byTime = new Map<number, Drawn>();
  /** Starts (ms) of the steps inside gaps, for the legend. */
  #gapTimes = new Set<number>();

  constructor(
    private readonly element: HTMLElement,
    /** The chart key, whose data-kind says which entries it explains. */
    private readonly key: HTMLElement,
    private readonly legend: Legend,
  ) {}

  get chart(): IChartApi | undefined {
    return this.#chart;
  }

  get series(): ISeriesApi<'Line'> | ISeriesApi<'Candlestick'> | undefined {
    return this.#shown?.main;
  }

  get gapSeries(): ISeriesApi<'Histogram'> | undefined {
    return this.#gapSeries;
  }

  drawLine(result: PointsResponse): DrawCounts {
    const { main, extra } = this.#lineSeries();
    const { rows, lone, blanks } = lineEntries(result);
    main.setData(byTimeAsc([...rows, ...blanks]));
    main.priceScale().applyOptions({ scaleMargins: MARGINS });
    this.#drawGaps(blanks);
    extra.setData(byTimeAsc(lone));
    this.#byTime = new Map(result.points.map((p) => [p.t, p]));
    return {
      drawn: rows.length,
      whitespace: blanks.length,
      notFinal: result.points.filter((p) => !p.final).length,
    };
  }

  drawCandles(result: CandlesResponse): DrawCounts {
    const { main, extra } = this.#candleSeries();
    const { rows, blanks, volumes } = candleEntries(result);
    main.setData(byTimeAsc([...rows, ...blanks]));
    this.#drawGaps(blanks);
    extra.setData(byTimeAsc(volumes));
    // Room for the tick counts only when there are some (at second width they are unknown).
    main
      .priceScale()
      .applyOptions({ scaleMargins: { top: 0.08, bottom: volumes.length > 0 ? 0.22 : 0.08 } });
    this.#byTime = new Map(result.candles.map((c) => [c.t, c]));
    return {
      drawn: rows.length,
      whitespace: blanks.length,
      notFinal: result.candles.filter((c) => !c.final).length,
    };
  }

  drawRaw(result: RawResponse, field: string): RawCounts {
    const { main } = this.#rawSeries();
    const { rows, edges, byMs, drawn, neighbours } = rawEntries(result, field);
    main.setData(byTimeAsc([...rows, ...edges]));
    main.priceScale().applyOptions({ scaleMargins: MARGINS });
    this.#drawGaps([]);
    this.#byTime = byMs;
    return { drawn, neighbours, whitespace: edges.length };
  }

  /** Shows all that was drawn. */
  fit(): void {
    this.#ensureChart().timeScale().fitContent();
  }

  /** Shows exactly [fromMs, toMs] (raw ticks, whose neighbours lie outside). */
  showRange(fromMs: number, toMs: number): void {
    this.#ensureChart()
      .timeScale()
      .setVisibleRange({ from: toRawChartTime(fromMs), to: toRawChartTime(toMs) });
  }

  /** Empties the series (the chart stays, or stays unmade). */
  clear(): void {
    this.#byTime = new Map();
    this.#shown?.main.setData([]);
    this.#shown?.extra?.setData([]);
    this.#drawGaps([]);
  }

  /** Shades the gaps' steps and remembers them for the legend. */
  #drawGaps(blanks: readonly { time: UTCTimestamp }[]): void {
    this.#gapSeries?.setData(blanks.map(({ time }) => ({ time, value: 1 })));
    this.#gapTimes = new Set(blanks.map(({ time }) => fromChartTime(time)));
  }

  #ensureChart(): IChartApi {
    if (this.#chart) return this.#chart;
    const LWC = chartLibrary();
    const chart = LWC.createChart(this.element, {
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
      localization: { timeFormatter: (time: Time) => `${formatTime(fromChartTime(time))} UTC` },
    });
    this.#chart = chart;
    // Added first, so drawn behind the data.
    this.#gapSeries = chart.addSeries(LWC.HistogramSeries, {
      color: COLORS.gapBand,
      priceScaleId: 'gaps',
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('gaps').applyOptions({ scaleMargins: { top: 0, bottom: 0 }, visible: false });
    chart.subscribeCrosshairMove((param) => {
      if (param.time === undefined) return this.legend.show(undefined);
      const ms = fromChartTime(param.time);
      if (this.#gapTimes.has(ms)) this.legend.showGap(ms);
      else this.legend.show(this.#byTime.get(this.#shown?.kind === 'raw' ? Math.round(ms) : ms));
    });
    return chart;
  }

  /** The chart without the series of another kind; raw ticks get seconds on the time axis. */
  #chartFor(kind: Kind): IChartApi {
    const chart = this.#ensureChart();
    if (this.#shown) chart.removeSeries(this.#shown.main);
    if (this.#shown?.extra) chart.removeSeries(this.#shown.extra);
    this.#shown = undefined;
    // Raw ticks are seconds apart or less: the axis shows seconds for them.
    chart.applyOptions({ timeScale: { secondsVisible: kind === 'raw' } });
    return chart;
  }

  #show<S extends Shown>(shown: S): S {
    this.#shown = shown;
    this.key.dataset.kind = shown.kind;
    return shown;
  }

  #lineSeries() {
    if (this.#shown?.kind === 'line') return this.#shown;
    const chart = this.#chartFor('line');
    const { LineSeries } = chartLibrary();
    return this.#show({
      kind: 'line',
      main: chart.addSeries(LineSeries, {
        color: COLORS.line,
        lineWidth: 2,
        priceLineVisible: false,
        lastValueVisible: true,
        crosshairMarkerRadius: 3,
        // Fixed, not the point's colour: the point before a gap is transparent (chart-data.ts).
        crosshairMarkerBackgroundColor: COLORS.line,
      }),
      // Points with a gap on both sides have no segment to show them: a dot each.
      extra: chart.addSeries(LineSeries, {
        color: COLORS.line,
        lineVisible: false,
        pointMarkersVisible: true,
        pointMarkersRadius: 2.5,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
      }),
    });
  }

  #rawSeries() {
    if (this.#shown?.kind === 'raw') return this.#shown;
    const chart = this.#chartFor('raw');
    const { LineSeries } = chartLibrary();
    // Every tick a dot, joined by a thin line: nothing is averaged, so nothing is hidden.
    return this.#show({
      kind: 'raw',
      main: chart.addSeries(LineSeries, {
        color: COLORS.line,
        lineWidth: 1,
        pointMarkersVisible: true,
        pointMarkersRadius: 2.5,
        priceLineVisible: false,
        // The last entry is usually the neighbour after the range: its value on the scale
        // would read as the range's latest.
        lastValueVisible: false,
        crosshairMarkerRadius: 4,
      }),
    });
  }

  #candleSeries() {
    if (this.#shown?.kind === 'candles') return this.#shown;
    const chart = this.#chartFor('candles');
    const { CandlestickSeries, HistogramSeries } = chartLibrary();
    const main = chart.addSeries(CandlestickSeries, {
      upColor: COLORS.up,
      downColor: COLORS.down,
      borderUpColor: COLORS.up,
      borderDownColor: COLORS.down,
      wickUpColor: COLORS.up,
      wickDownColor: COLORS.down,
      priceLineVisible: false,
    });
    // Ticks per candle, along the bottom fifth.
    const extra = chart.addSeries(HistogramSeries, {
      color: COLORS.volume,
      priceScaleId: 'ticks',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('ticks').applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } });
    return this.#show({ kind: 'candles', main, extra });
  }
}
