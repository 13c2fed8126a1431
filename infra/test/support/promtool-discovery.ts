import { runProcess } from '@tickertape/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { TargetGroup } from './kubernetes-pod-targets.js';

export type Labels = Record<string, string>;

/** One discovered target and what the scrape config's relabeling made of it. */
export interface RelabeledTarget {
  discovered: Labels;
  /** The target's labels with the `__` ones removed; absent when the relabeling dropped it. */
  labels?: Labels;
}

export const promtool = (args: string[], cwd: string) =>
  runProcess('promtool', args, { cwd, env: process.env });

/**
 * Prometheus's own relabeling of `groups` by one scrape config (`kubernetes_sd_configs` or not:
 * its discovery is replaced by a file of these groups): `promtool check config` must accept the
 * result, then `promtool check service-discovery` reports every target before and after.
 */
export async function relabelTargets(
  scrapeConfig: Record<string, unknown>,
  groups: TargetGroup[],
): Promise<RelabeledTarget[]> {
  const dir = await mkdtemp(join(tmpdir(), 'tickertape-discovery-'));
  try {
    const { kubernetes_sd_configs: _discovery, ...rest } = scrapeConfig;
    const job = { ...rest, job_name: 'under-test', file_sd_configs: [{ files: ['targets.json'] }] };
    await writeFile(join(dir, 'targets.json'), JSON.stringify(groups));
    await writeFile(join(dir, 'prometheus.yml'), stringify({ scrape_configs: [job] }));
    const checked = await promtool(['check', 'config', 'prometheus.yml'], dir);
    if (checked.code !== 0)
      throw new Error(`promtool check config: ${checked.stdout}${checked.stderr}`);
    // It reports what discovery found within the timeout; a file is read at once.
    const run = await promtool(
      ['check', 'service-discovery', '--timeout=3s', 'prometheus.yml', 'under-test'],
      dir,
    );
    if (run.code !== 0) throw new Error(`promtool check service-discovery: ${run.stderr}`);
    const targets = JSON.parse(run.stdout) as { discoveredLabels: Labels; labels: Labels }[];
    const expected = groups.reduce((sum, group) => sum + group.targets.length, 0);
    if (targets.length !== expected)
      throw new Error(`promtool discovered ${targets.length} of ${expected} targets in time`);
    return targets.map((target) => {
      const kept = Object.entries(target.labels).filter(([name]) => !name.startsWith('__'));
      return {
        discovered: target.discoveredLabels,
        ...(Object.keys(target.labels).length === 0 ? {} : { labels: Object.fromEntries(kept) }),
      };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A series as Prometheus stores it after a scrape without honor_labels (the chart's and the
 * operator's default): the target's labels win, and a label of the process's own that they
 * overwrite is kept as `exported_<name>` (why the scheduler's job label is `job_name`, not `job`).
 */
export function scraped(target: Labels, own: Labels): Labels {
  const series = { ...own };
  for (const [name, value] of Object.entries(target)) {
    if (own[name] !== undefined) series[`exported_${name}`] = own[name];
    series[name] = value;
  }
  return series;
}

/** `name{a="b",…}`, as promtool's input_series spell a series. */
export const seriesText = (name: string, labels: Labels) =>
  `${name}{${Object.entries(labels)
    .map(([label, value]) => `${label}=${JSON.stringify(value)}`)
    .join(',')}}`;
