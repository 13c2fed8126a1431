// The "Query" panel: how the chart's data was read (resolution, source, documents examined)
// and what it holds (points, points not final yet, gaps).

import type { RangeBase, RawResponse } from './api-types.js';
import type { DrawCounts, RawCounts } from './chart-view.js';
import { formatDuration, formatExamined, formatStep, formatTime } from './format.js';
import type { Page } from './page.js';

/** Gaps listed one by one; the rest are counted. */
const GAPS_LISTED = 12;
/** What a sub-slot of each level holds. */
const SUB_SLOTS: Record<string, string> = {
  minute: 'per-second values',
  hour: 'per-minute totals',
  day: 'per-hour totals',
};

export function describeSource(level: string, detail: string): string {
  return detail === 'sub'
    ? `${level} buckets, ${SUB_SLOTS[level] ?? 'sub-slots'}`
    : `${level} buckets, one point per bucket`;
}

export class QueryFacts {
  constructor(private readonly ui: Page) {}

  show(result: RangeBase, counts: Pick<DrawCounts, 'drawn' | 'notFinal'>): void {
    const { ui } = this;
    const { stepMs, source } = result.resolution;
    ui.resolution.textContent = `${formatStep(stepMs)} per point`;
    ui.source.textContent = describeSource(source.level, source.detail);
    ui.examined.textContent = formatExamined(result.examined);
    ui.pointCount.textContent = String(counts.drawn);
    ui.openCount.textContent = counts.notFinal === 0 ? 'none' : String(counts.notFinal);
    const missing = result.gaps.reduce((total, gap) => total + (gap.to - gap.from), 0);
    ui.gapCount.textContent =
      result.gaps.length === 0
        ? 'none'
        : `${result.gaps.length} (${formatDuration(missing)} without data)`;
    const shown = result.gaps.slice(0, GAPS_LISTED).map((gap) => {
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

  showRaw(result: RawResponse, counts: Pick<RawCounts, 'drawn' | 'neighbours'>): void {
    const { ui } = this;
    ui.resolution.textContent = 'every tick (raw)';
    ui.source.textContent = 'segment store';
    ui.examined.textContent = formatExamined(result.examined);
    ui.pointCount.textContent =
      counts.neighbours === 0
        ? String(counts.drawn)
        : `${counts.drawn} + ${counts.neighbours} outside the range`;
    // Raw ticks are final as stored, and a silence between them is not measured in steps.
    ui.openCount.textContent = '—';
    ui.gapCount.textContent = '—';
    ui.gapList.replaceChildren();
  }

  clear(): void {
    const { ui } = this;
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
}
