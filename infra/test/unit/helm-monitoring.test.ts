/**
 * The alerts can fire on what the chart deploys. The chart's pods are scraped either by its
 * PodMonitor (Prometheus Operator) or by infra/prometheus/kubernetes-scrape.yml (without it);
 * for each, promtool relabels the targets one pod of each kind would be discovered as, and the
 * labels it produces (job tickertape-worker with the level, tickertape-scheduler,
 * tickertape-api) go into a promtool rule test in which every alert of
 * infra/prometheus/tickertape-alerts.yml must fire with the labels it keeps of them.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { STORES } from '@tickertape/topology';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { alertCases, type ScrapedPods } from '../support/alert-cases.js';
import { named, render, workerName, type K8sObject } from '../support/helm.js';
import { podTargets } from '../support/kubernetes-pod-targets.js';
import { podMonitorScrapeConfig, type PodMonitorSpec } from '../support/pod-monitor-scrape.js';
import { promtool, relabelTargets, type Labels } from '../support/promtool-discovery.js';

const prometheusDir = fileURLToPath(new URL('../../prometheus', import.meta.url));
const namespace = 'tickertape';

interface RuleFile {
  groups: { name: string; rules: { alert?: string; annotations?: unknown }[] }[];
}

let objects: K8sObject[];
beforeAll(async () => {
  objects = await render('monitoring.podMonitor.enabled=true');
}, 600_000);

const sources: [string, () => Record<string, unknown>][] = [
  [
    'the PodMonitor',
    () => {
      const monitor = objects.find((o) => o.kind === 'PodMonitor')!;
      return podMonitorScrapeConfig(
        namespace,
        monitor.metadata.name,
        monitor.spec as unknown as PodMonitorSpec,
      );
    },
  ],
  [
    'infra/prometheus/kubernetes-scrape.yml',
    () => {
      const file = parse(readFileSync(`${prometheusDir}/kubernetes-scrape.yml`, 'utf8')) as {
        scrape_configs: Record<string, unknown>[];
      };
      expect(file.scrape_configs).toHaveLength(1);
      return file.scrape_configs[0]!;
    },
  ],
];

describe.each(sources)('scraped through %s', (_source, scrapeConfig) => {
  /** Each workload's target labels by its name; undefined when its pod is not scraped. */
  let targets: Map<string, Labels | undefined>;

  beforeAll(async () => {
    const workloads = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
    const relabeled = await relabelTargets(scrapeConfig(), podTargets(workloads, namespace));
    targets = new Map(
      workloads.map((workload) => {
        const pod = `${workload.metadata.name}-0`;
        const kept = relabeled.filter(
          (t) => t.discovered.__meta_kubernetes_pod_name === pod && t.labels !== undefined,
        );
        expect({ pod, targets: kept.length <= 1 }).toEqual({ pod, targets: true });
        return [workload.metadata.name, kept[0]?.labels];
      }),
    );
  }, 60_000);

  it('labels each worker tickertape-worker with its level, the scheduler and the API by their jobs, on their HTTP port; not the topics job', () => {
    const ports = new Map([
      ['tickertape-worker', 9400],
      ['tickertape-scheduler', 9410],
      ['tickertape-api', 9420],
    ]);
    const expected: [string, Labels][] = [
      ...STORES.map((store): [string, Labels] => [
        workerName(store),
        { job: 'tickertape-worker', level: store },
      ]),
      ['t-scheduler', { job: 'tickertape-scheduler' }],
      ['t-api', { job: 'tickertape-api' }],
    ];
    for (const [name, labels] of expected) {
      const target = targets.get(name);
      expect({ name, target }).toMatchObject({ name, target: labels });
      expect(target!.instance).toMatch(new RegExp(`:${ports.get(labels.job!)}$`));
      if (labels.level === undefined) expect(target!.level).toBeUndefined();
      expect(target!.pod).toBe(`${name}-0`);
    }
    expect(named(objects, 'Job', 't-topics')).toBeDefined();
    expect(targets.get('t-topics')).toBeUndefined();
  });

  it('fires every alert rule on series with those labels (promtool test rules)', async () => {
    const pods: ScrapedPods = {
      workers: STORES.map((store) => ({ level: store, target: targets.get(workerName(store))! })),
      scheduler: targets.get('t-scheduler')!,
      api: targets.get('t-api')!,
    };
    const cases = alertCases(pods);
    const rules = parse(
      await readFile(`${prometheusDir}/tickertape-alerts.yml`, 'utf8'),
    ) as RuleFile;
    const alerts = rules.groups.flatMap((g) => g.rules).flatMap((r) => r.alert ?? []);
    expect(cases.flatMap((c) => c.alert_rule_test.map((t) => t.alertname)).sort()).toEqual(
      [...alerts].sort(),
    );
    // Annotations are left out: their text is tickertape-alerts.test.yml's to check, and every
    // expectation here would otherwise have to render it. Expressions, `for` and labels are the file's.
    const withoutAnnotations: RuleFile = {
      groups: rules.groups.map((g) => ({
        ...g,
        rules: g.rules.map(({ annotations: _annotations, ...rule }) => rule),
      })),
    };
    const dir = await mkdtemp(join(tmpdir(), 'tickertape-chart-alerts-'));
    try {
      await writeFile(join(dir, 'rules.yml'), stringify(withoutAnnotations));
      await writeFile(
        join(dir, 'tests.yml'),
        stringify({ rule_files: ['rules.yml'], evaluation_interval: '1m', tests: cases }),
      );
      const run = await promtool(['test', 'rules', 'tests.yml'], dir);
      expect(`${run.stdout}${run.stderr}`).toContain('SUCCESS');
      expect(run.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
