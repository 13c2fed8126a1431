// @ts-check
// "Across series": one number per series over a recent window (the seed's 10-minute average
// speed of 50 sensors), from GET /api/v1/window by metric and tag in one request. The table
// publishes its outcome on #compare's data attributes (state 'idle' | 'loading' | 'ready' |
// 'error', rows, examined, metric, field, from, to, truncated, runs) for tests and scripts.

/**
 * @typedef {{ t: number, v: number }} Observation
 * @typedef {{ series: string, n: number, sum: number, avg: number | null, min: number | null, max: number | null, first: Observation | null, last: Observation | null, final: boolean }} WindowRow
 * @typedef {{ metric: string, tags: Record<string, string>, series: number, truncated: boolean }} Selected
 * @typedef {{ field: string, fromMs: number, toMs: number, rows: WindowRow[], examined: number, selected?: Selected }} WindowResponse
 * @typedef {{ metric: string, tag: string, field: string }} CompareQuery
 * @typedef {<T>(path: string, params: Record<string, string | number | undefined>, signal?: AbortSignal) => Promise<T>} ApiGet
 */

/** Most series one comparison sums: the API's own default. */
const COMPARE_LIMIT = 100;

/**
 * @param {{
 *   table: HTMLTableElement,
 *   facts: HTMLElement,
 *   last: HTMLSelectElement,
 *   get: ApiGet,
 *   query: () => CompareQuery | string,
 *   pick: (series: string) => void,
 *   number: (value: number) => string,
 *   time: (ms: number) => string,
 *   failed: (err: unknown, doing: string) => void,
 *   isAbort: (err: unknown) => boolean,
 * }} deps `query` gives what to compare, or why there is nothing to compare yet.
 */
export function comparison(deps) {
  const { table, facts } = deps;
  /** @type {AbortController | undefined} */
  let running;
  let runs = 0;
  /** @type {WindowResponse | undefined} */
  let lastResult;

  /** @param {Record<string, string | number | boolean>} values */
  const publish = (values) => {
    for (const [key, value] of Object.entries(values)) table.dataset[key] = String(value);
  };

  /** @param {string} text */
  const showEmpty = (text) => {
    const body = table.tBodies[0] ?? table.createTBody();
    const row = document.createElement('tr');
    const cell = row.insertCell();
    cell.colSpan = 7;
    cell.className = 'muted';
    cell.textContent = text;
    body.replaceChildren(row);
  };

  /** @param {number | null} value */
  const cellText = (value) => (value === null ? '' : deps.number(value));

  /** @param {WindowResponse} result */
  const fill = (result) => {
    const body = table.tBodies[0] ?? table.createTBody();
    if (result.rows.length === 0) {
      showEmpty('No series of this metric has data in the window.');
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
        button.addEventListener('click', () => deps.pick(row.series));
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
  };

  /** @param {WindowResponse} result */
  const describe = (result) => {
    const selected = result.selected;
    const tags = Object.entries(selected?.tags ?? {})
      .map(([key, value]) => `${key}:${value}`)
      .join(', ');
    const found = selected
      ? `${selected.series} series of ${selected.metric}${tags ? ` (${tags})` : ''}`
      : `${result.rows.length} series`;
    const more = selected?.truncated ? ` (more match: narrow the tag)` : '';
    return (
      `${found}${more}, ${result.field} from ${deps.time(result.fromMs)} to ` +
      `${deps.time(result.toMs)}; ${result.examined} document${result.examined === 1 ? '' : 's'} examined`
    );
  };

  async function run() {
    const query = deps.query();
    if (typeof query === 'string') {
      running?.abort();
      facts.textContent = query;
      showEmpty('—');
      publish({ state: 'idle', rows: 0 });
      return;
    }
    running?.abort();
    const controller = new AbortController();
    running = controller;
    publish({ state: 'loading' });
    try {
      /** @type {WindowResponse} */
      const result = await deps.get(
        'window',
        {
          metric: query.metric,
          tag: query.tag,
          field: query.field,
          last: deps.last.value,
          limit: COMPARE_LIMIT,
        },
        controller.signal,
      );
      lastResult = result;
      fill(result);
      facts.textContent = describe(result);
      runs += 1;
      publish({
        state: 'ready',
        runs,
        rows: result.rows.length,
        examined: result.examined,
        metric: query.metric,
        field: result.field,
        from: result.fromMs,
        to: result.toMs,
        truncated: result.selected?.truncated ?? false,
      });
    } catch (err) {
      if (deps.isAbort(err)) return;
      runs += 1;
      publish({ state: 'error', runs, rows: 0 });
      showEmpty('Could not compare.');
      deps.failed(err, 'comparing series');
    } finally {
      if (running === controller) running = undefined;
    }
  }

  return {
    run,
    /** Whether a comparison has been shown (live refresh repeats only those). */
    get shown() {
      return lastResult !== undefined;
    },
    get last() {
      return lastResult;
    },
  };
}
