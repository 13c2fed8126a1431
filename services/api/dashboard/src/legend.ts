// The line above the chart: the draw's summary, or what is under the crosshair.

import type { Candle, Point } from './api-types.js';
import type { RawEntry } from './chart-data.js';
import { formatNumber, formatRawTime, formatTime } from './format.js';

/** Something drawn: a point of the line, a candle, or a raw tick. */
export type Drawn = Point | Candle | RawEntry;

const WHERE: Record<RawEntry['position'], string> = {
  before: ' · before the range',
  in: '',
  after: ' · after the range',
};

export function describeEntry(entry: Drawn): string {
  if ('position' in entry)
    return `${formatRawTime(entry.t)} UTC · ${entry.field} ${formatNumber(entry.value)}${WHERE[entry.position]}`;
  const when = `${formatTime(entry.t)} UTC`;
  const final = entry.final ? 'final' : 'not final';
  if ('avg' in entry) {
    const n = entry.n === null ? '' : ` · n ${entry.n}`;
    return `${when} · avg ${formatNumber(entry.avg)} · min ${formatNumber(entry.min)} · max ${formatNumber(entry.max)}${n} · ${final}`;
  }
  const ticks = entry.volume === null ? '' : ` · ${entry.volume} ticks`;
  return `${when} · O ${formatNumber(entry.open)} H ${formatNumber(entry.high)} L ${formatNumber(entry.low)} C ${formatNumber(entry.close)}${ticks} · ${final}`;
}

export class Legend {
  #summary: string | undefined;

  constructor(private readonly element: HTMLElement) {}

  /** What was drawn, shown whenever the crosshair is on nothing. */
  summarize(summary: string): void {
    this.#summary = summary;
    this.element.textContent = summary;
  }

  clear(): void {
    this.#summary = undefined;
    this.element.textContent = '';
  }

  show(entry: Drawn | undefined): void {
    this.element.textContent = entry ? describeEntry(entry) : (this.#summary ?? '');
  }

  showGap(ms: number): void {
    this.element.textContent = `${formatTime(ms)} UTC · no data (gap)`;
  }
}
