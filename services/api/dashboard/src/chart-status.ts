// What #chart tells tests and scripts about the latest draw, in its data attributes (state
// 'idle' | 'loading' | 'ready' | 'error', points, gaps, whitespace, notFinal, kind, series,
// field, from, to, maxPoints, stepMs, level, detail, examined, draws; `points` counts drawn
// entries, never whitespace; with raw points, `neighbours` counts the points drawn outside the
// range), and the overlay that tells people why nothing is drawn.

export type ChartState = 'idle' | 'loading' | 'ready' | 'error';

export class ChartStatus {
  constructor(
    private readonly chart: HTMLElement,
    private readonly overlay: HTMLElement,
  ) {}

  setState(value: ChartState): void {
    this.chart.dataset.state = value;
    this.chart.setAttribute('aria-busy', String(value === 'loading'));
  }

  /** null hides the overlay. */
  setOverlay(text: string | null): void {
    this.overlay.textContent = text ?? '';
    this.overlay.hidden = text === null;
  }

  publish(facts: Record<string, string | number>): void {
    for (const [key, value] of Object.entries(facts)) this.chart.dataset[key] = String(value);
  }
}
