// "Across series": one number per series over a recent window (the seed's 10-minute average
// speed of 50 sensors), from GET /api/v1/window by metric and tag in one request. The table
// publishes its outcome on #compare's data attributes (state 'idle' | 'loading' | 'ready' |
// 'error', rows, examined, metric, field, from, to, truncated, runs) for tests and scripts.

import type { ApiGet } from './api-client.js';
import { ApiError, isAbort } from './api-client.js';
import type { WindowResponse } from './api-types.js';
import { formatExamined, formatNumber, formatTime } from './format.js';
import type { ReportError } from './report-error.js';

/** Most series one comparison sums: the API's own default. */
const COMPARE_LIMIT = 100;
const COLUMNS = 7;

export interface CompareQuery {
  metric: string;
  tag: string;
  field: string;
}

export interface ComparisonDeps {
  table: HTMLTableElement;
  facts: HTMLElement;
  /** The window's length ("10m", …) is this select's value. */
  last: HTMLSelectElement;
  get: ApiGet;
  /** What to compare, or why there is nothing to compare yet. */
  query: () => CompareQuery | string;
  /** Draws a series whose name was clicked. */
  pick: (series: string) => void;
  failed: ReportError;
}

export class Comparison {
  #running: AbortController | undefined;
  #runs = 0;
  #last: WindowResponse | undefined;

  constructor(private readonly deps: ComparisonDeps) {}

  /** Whether a comparison has been shown (live refresh repeats only those). */
  get shown(): boolean {
    return this.#last !== undefined;
  }

  get last(): WindowResponse | undefined {
    return this.#last;
  }

  async run(): Promise<void> {
    const { facts, last, get } = this.deps;
    const query = this.deps.query();
    if (typeof query === 'string') {
      this.#running?.abort();
      facts.textContent = query;
      this.#showEmpty('—');
      this.#publish({ state: 'idle', rows: 0 });
      return;
    }
    this.#running?.abort();
    const controller = new AbortController();
    this.#running = controller;
    this.#publish({ state: 'loading' });
    try {
      const result = await get(
        'window',
        {
          metric: query.metric,
          tag: query.tag,
          field: query.field,
          last: last.value,
          limit: COMPARE_LIMIT,
        },
        controller.signal,
      );
      this.#last = result;
      this.#fill(result);
      facts.textContent = describe(result);
      this.#runs += 1;
      this.#publish({
        state: 'ready',
        runs: this.#runs,
        rows: result.rows.length,
        examined: result.examined,
        metric: query.metric,
        field: result.field,
        from: result.fromMs,
        to: result.toMs,
        truncated: result.selected?.truncated ?? false,
      });
    } catch (err) {
      if (isAbort(err)) return;
      this.#runs += 1;
      this.#publish({ state: 'error', runs: this.#runs, rows: 0 });
      // A misspelt metric or tag is named by the API (404): say it where the rows would be.
      this.#showEmpty(
        err instanceof ApiError && err.status === 404 ? err.message : 'Could not compare.',
      );
      this.deps.failed(err, 'comparing series');
    } finally {
      if (this.#running === controller) this.#running = undefined;
    }
  }

  #publish(values: Record<string, string | number | boolean>): void {
    for (const [key, value] of Object.entries(values)) this.deps.table.dataset[key] = String(value);
  }

  #body(): HTMLTableSectionElement {
    return this.deps.table.tBodies[0] ?? this.deps.table.createTBody();
  }

  #showEmpty(text: string): void {
    const row = document.createElement('tr');
    const cell = row.insertCell();
    cell.colSpan = COLUMNS;
    cell.className = 'muted';
    cell.textContent = text;
    this.#body().replaceChildren(row);
  }

  #fill(result: WindowResponse): void {
    const body = this.#body();
    if (result.rows.length === 0) {
      this.#showEmpty('No series of this metric has data in the window.');
      return;
    }
    body.replaceChildren(
      ...result.rows.map((row) => {
        const tr = document.createElement('tr');
        tr.dataset.series = row.series;
        const head = document.createElement('th');
        head.scope = 'row';
        // A button, so the keyboard reaches it: it draws this series above.
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'link';
        button.textContent = row.series;
        button.title = 'Draw this series';
        button.addEventListener('click', () => this.deps.pick(row.series));
        head.append(button);
        tr.append(head);
        // A series without readings in the window shows empty cells, never zeros.
        const cells = [
          String(row.n),
          cellText(row.avg),
          cellText(row.min),
          cellText(row.max),
          cellText(row.last?.v ?? null),
          row.final ? 'final' : 'not final',
        ];
        cells.forEach((text, i) => {
          const td = tr.insertCell();
          td.textContent = text;
          if (i === cells.length - 1) td.className = row.final ? 'final' : 'open';
        });
        return tr;
      }),
    );
  }
}

function cellText(value: number | null): string {
  return value === null ? '' : formatNumber(value);
}

/** "50 series of speed (sensor:…), avg from … to …; 50 documents examined". */
function describe(result: WindowResponse): string {
  const selected = result.selected;
  const tags = Object.entries(selected?.tags ?? {})
    .map(([key, value]) => `${key}:${value}`)
    .join(', ');
  const found = selected
    ? `${selected.series} series of ${selected.metric}${tags ? ` (${tags})` : ''}`
    : `${result.rows.length} series`;
  const more = selected?.truncated ? ` (more match: narrow the tag)` : '';
  return (
    `${found}${more}, ${result.field} from ${formatTime(result.fromMs)} to ` +
    `${formatTime(result.toMs)}; ${formatExamined(result.examined)} examined`
  );
}
