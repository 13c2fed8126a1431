import { basename, dirname, join } from 'node:path';
import type { BenchReport } from './bench-report.js';

/** docs/benchmarks.md → docs/benchmarks.json: the report's data beside its Markdown. */
export function jsonPathFor(docPath: string): string {
  return join(dirname(docPath), `${basename(docPath, '.md')}.json`);
}

/** Objects with their keys sorted at every depth; arrays keep their order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)]));
}

/**
 * The whole report as pretty-printed JSON for programs (the capacity model reads it). Keys are
 * sorted at every depth so two runs differ only where their figures do, whatever order the
 * harness happened to build the objects in. A figure that is not a number (NaN, ±Infinity)
 * becomes null, as JSON has no other spelling for it.
 */
export function reportJson(report: BenchReport): string {
  return `${JSON.stringify(sortedKeys(report), null, 2)}\n`;
}
