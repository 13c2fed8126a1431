// The "Freshness" table: per level, the newest event, its age, whether the newest bucket is
// final, the finality watermark and the consumer group's lag.

import type { StatusResponse } from './api-types.js';
import { formatDuration, formatLag, formatTime } from './format.js';

const COLUMNS = 6;

export class FreshnessTable {
  /** The status shown, if any. */
  last: StatusResponse | undefined;

  constructor(private readonly table: HTMLTableElement) {}

  /** Without a status, one row saying why (`failure`) or a dash. */
  show(status: StatusResponse | undefined, failure?: string): void {
    this.last = status;
    const body = this.table.tBodies[0] ?? this.table.createTBody();
    if (!status) {
      const row = body.insertRow();
      body.replaceChildren(row);
      const cell = row.insertCell();
      cell.colSpan = COLUMNS;
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
          level.freshnessMs === null ? 'no data' : formatTime(level.freshnessMs),
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
  tickAges(): void {
    if (!this.last) return;
    const now = Date.now();
    for (const row of this.table.tBodies[0]?.rows ?? []) {
      const level = this.last.levels.find((l) => l.level === row.dataset.level);
      const cell = row.querySelector('.age');
      if (level && cell && level.freshnessMs !== null)
        cell.textContent = formatDuration(now - level.freshnessMs);
    }
  }
}
