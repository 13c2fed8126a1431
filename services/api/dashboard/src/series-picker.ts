// The series list: found by metric and tag filter, grouped by metric in #series, with the
// chosen series' fields in #field.

import type { ApiGet } from './api-client.js';
import { isAbort } from './api-client.js';
import type { SeriesInfo, SeriesResponse } from './api-types.js';
import type { ChartStatus } from './chart-status.js';
import { discoveryRange } from './controls.js';
import type { MessageLine } from './messages.js';
import type { Page } from './page.js';
import type { ReportError } from './report-error.js';
import type { Session } from './session.js';

const SERIES_LIMIT = 500;
/** The field chosen first, when a series has it. */
const PREFERRED_FIELDS = ['price', 'value', 'avg'];

export interface SeriesPickerDeps {
  ui: Page;
  api: ApiGet;
  session: Session;
  messages: MessageLine;
  status: ChartStatus;
  report: ReportError;
  /** Draws what is chosen once the list is in. */
  draw: () => Promise<void>;
}

export class SeriesPicker {
  /** The series last listed. */
  list: SeriesInfo[] = [];
  #listing: AbortController | undefined;

  constructor(private readonly deps: SeriesPickerDeps) {}

  selected(): SeriesInfo | undefined {
    return this.list.find((s) => s.series === this.deps.ui.series.value);
  }

  /** Lists the series matching the filters, then draws; `prefer` stays chosen when listed. */
  async listSeries(prefer: string | undefined = this.deps.ui.series.value): Promise<void> {
    const { ui, api, session, messages, status } = this.deps;
    if (!session.token) return;
    this.#listing?.abort();
    const controller = new AbortController();
    this.#listing = controller;
    ui.find.disabled = true;
    const { fromMs, toMs } = discoveryRange(ui);
    try {
      const found = await api(
        'series',
        {
          metric: ui.metric.value.trim(),
          tag: ui.tag.value.trim(),
          from: fromMs,
          to: toMs,
          limit: SERIES_LIMIT,
        },
        controller.signal,
      );
      this.list = found.series;
      this.#fillSeries(found, prefer);
      messages.clear();
      if (found.truncated)
        messages.show(
          `More series match than the ${found.series.length} listed: narrow the metric or tag filter.`,
          'info',
        );
      await this.deps.draw();
    } catch (err) {
      if (isAbort(err)) return;
      status.setState('error');
      status.setOverlay('Could not list series.');
      this.deps.report(err, 'listing series');
    } finally {
      if (this.#listing === controller) ui.find.disabled = false;
    }
  }

  #fillSeries(found: SeriesResponse, prefer: string | undefined): void {
    const { ui } = this.deps;
    ui.series.replaceChildren();
    const groups = new Map<string, HTMLOptGroupElement>();
    for (const info of found.series) {
      let group = groups.get(info.metric);
      if (!group) {
        group = document.createElement('optgroup');
        group.label = info.metric;
        groups.set(info.metric, group);
        ui.series.append(group);
      }
      group.append(new Option(info.series, info.series));
    }
    ui.metrics.replaceChildren(...[...groups.keys()].map((metric) => new Option(metric)));
    if (found.series.length === 0) {
      ui.series.append(new Option('no series match', ''));
      ui.series.disabled = true;
    } else {
      ui.series.disabled = false;
      const keep = found.series.some((s) => s.series === prefer);
      ui.series.value = keep && prefer ? prefer : (found.series[0]?.series ?? '');
    }
    this.fillFields();
  }

  /** The chosen series' fields; the field chosen before stays when the series has it. */
  fillFields(): void {
    const { ui } = this.deps;
    const info = this.selected();
    const previous = ui.field.value;
    ui.field.replaceChildren(...(info?.fields ?? []).map((name) => new Option(name, name)));
    ui.field.disabled = !info || info.fields.length === 0;
    if (!info) return;
    const preferred = PREFERRED_FIELDS.find((name) => info.fields.includes(name));
    ui.field.value = info.fields.includes(previous)
      ? previous
      : (preferred ?? info.fields[0] ?? '');
  }
}
