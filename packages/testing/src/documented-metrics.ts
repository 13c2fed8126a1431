import { readFile } from 'node:fs/promises';

/** docs/operating.md, from src/ and dist/ alike (both sit two folders under the repository). */
const operatingDoc = new URL('../../../docs/operating.md', import.meta.url);

/** The process a row of the table names in its `from` column. */
export type MetricSource = 'worker' | 'segment worker' | 'scheduler' | 'API';

/**
 * The `tickertape_*` series docs/operating.md's table ("What every process exports") lists for
 * one process, without their `{labels}`, sorted: what a test compares with that process's
 * prom-client registry, so the table neither misses a series nor keeps one that is gone.
 */
export async function documentedMetrics(from: MetricSource): Promise<string[]> {
  const doc = await readFile(operatingDoc, 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('What every process exports'));
  if (section === undefined)
    throw new Error('docs/operating.md has no "What every process exports"');
  const names = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells[2] === from)
    .flatMap((cells) => [...(cells[1] ?? '').matchAll(/`(tickertape_[a-z0-9_]+)(?:\{[^}]*\})?`/g)])
    .map((match) => match[1]!);
  return [...new Set(names)].sort();
}

/** The `tickertape_*` series a prom-client registry holds (Node's process_* and nodejs_* left out), sorted. */
export async function registeredMetrics(registry: {
  getMetricsAsJSON(): Promise<{ name: string }[]>;
}): Promise<string[]> {
  return (await registry.getMetricsAsJSON())
    .map((metric) => metric.name)
    .filter((name) => name.startsWith('tickertape_'))
    .sort();
}
