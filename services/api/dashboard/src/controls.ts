// What the form's controls ask for: the time range, the kind of chart, the points wanted.

import type { SeriesInfo } from './api-types.js';
import { DAY, HOUR, MINUTE, fromInputValue, toInputValue } from './format.js';
import type { Page } from './page.js';

/** The range choices other than "custom", as in index.html's #range. */
const PRESETS: Record<string, number> = {
  '15m': 15 * MINUTE,
  '1h': HOUR,
  '6h': 6 * HOUR,
  '24h': DAY,
  '7d': 7 * DAY,
};
/** Series are listed from buckets of the last 30 days (plus any custom range). */
const DISCOVERY_MS = 30 * DAY;
/** One point per this many pixels of chart width. */
const PX_PER_POINT = 3;
/** Metrics drawn as candles when the chart is on "auto". */
const CANDLE_METRICS = new Set(['stock.tick']);

export type Kind = 'line' | 'candles' | 'raw';

export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/** The range chosen; a custom one may be NaN at either end while its inputs are empty. */
export function selectedRange(ui: Page): TimeRange {
  const preset = PRESETS[ui.range.value];
  if (preset !== undefined) {
    const toMs = Date.now();
    return { fromMs: toMs - preset, toMs };
  }
  return { fromMs: fromInputValue(ui.from.value), toMs: fromInputValue(ui.to.value) };
}

/**
 * Where to look for series: the last 30 days and the next hour (clocks differ), widened to a
 * custom range that reaches further.
 */
export function discoveryRange(ui: Page): TimeRange {
  const now = Date.now();
  let fromMs = now - DISCOVERY_MS;
  let toMs = now + HOUR;
  if (ui.range.value === 'custom') {
    const range = selectedRange(ui);
    if (Number.isFinite(range.fromMs)) fromMs = Math.min(fromMs, range.fromMs);
    if (Number.isFinite(range.toMs)) toMs = Math.max(toMs, range.toMs);
  }
  return { fromMs, toMs };
}

/** The custom inputs are on only for "custom" (first filled with the last hour); live is off. */
export function syncRangeInputs(ui: Page): void {
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

export function kindFor(ui: Page, info: SeriesInfo): Kind {
  if (ui.raw.checked) return 'raw';
  if (ui.view.value === 'line' || ui.view.value === 'candles') return ui.view.value;
  return CANDLE_METRICS.has(info.metric) ? 'candles' : 'line';
}

/** The finest resolution the chart can show at its width. */
export function maxPointsForWidth(chart: HTMLElement): number {
  const width = chart.clientWidth || 900;
  return Math.max(20, Math.floor(width / PX_PER_POINT));
}
