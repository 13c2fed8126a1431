import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { renderChart } from './chart.js';
import { renderMarkdown } from './markdown.js';
import { jsonPathFor, reportJson } from './report-json.js';
import type { BenchReport } from './bench-report.js';

export interface WrittenReport {
  markdown: string;
  /** Where each file went. */
  doc: string;
  chart: string;
  json: string;
}

/** The report a run is about to replace, when there is one (JSON nulls stand for NaN). */
async function previousReport(json: string): Promise<BenchReport | undefined> {
  let text: string;
  try {
    text = await readFile(json, 'utf8');
  } catch {
    return undefined;
  }
  return JSON.parse(text, (_key, value: unknown) =>
    value === null ? Number.NaN : value,
  ) as BenchReport;
}

/**
 * The report's three files: the Markdown at `docPath`, its chart (`.svg`) and the whole report
 * as data (`.json`, for the capacity model) beside it, with the same base name.
 */
export async function writeReport(
  report: BenchReport,
  docPath: string,
  command: string,
): Promise<WrittenReport> {
  const chartFile = `${basename(docPath, '.md')}.svg`;
  const chart = join(dirname(docPath), chartFile);
  const json = jsonPathFor(docPath);
  const previous = await previousReport(json);
  const markdown = renderMarkdown(report, {
    command,
    chart: chartFile,
    ...(previous === undefined ? {} : { previous }),
  });
  await writeFile(chart, await renderChart(report));
  await writeFile(docPath, markdown);
  await writeFile(json, reportJson(report));
  return { markdown, doc: docPath, chart, json };
}
