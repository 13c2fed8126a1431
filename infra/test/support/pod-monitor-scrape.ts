import { sanitizeLabelName } from './kubernetes-pod-targets.js';

/** A relabeling as a PodMonitor spells it (camelCase) and as Prometheus does (snake_case). */
interface MonitorRelabeling {
  sourceLabels?: string[];
  separator?: string;
  targetLabel?: string;
  regex?: string;
  replacement?: string;
  action?: string;
}
export interface RelabelConfig {
  source_labels?: string[];
  separator?: string;
  target_label?: string;
  regex?: string;
  replacement?: string;
  action?: string;
}

export interface PodMonitorSpec {
  selector: {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  podMetricsEndpoints: {
    port: string;
    path?: string;
    interval?: string;
    relabelings?: MonitorRelabeling[];
  }[];
}

function snakeCase(relabeling: MonitorRelabeling): RelabelConfig {
  const config: RelabelConfig = {};
  if (relabeling.sourceLabels) config.source_labels = relabeling.sourceLabels;
  if (relabeling.separator !== undefined) config.separator = relabeling.separator;
  if (relabeling.targetLabel) config.target_label = relabeling.targetLabel;
  if (relabeling.regex) config.regex = relabeling.regex;
  if (relabeling.replacement !== undefined) config.replacement = relabeling.replacement;
  if (relabeling.action) config.action = relabeling.action;
  return config;
}

/**
 * The scrape config the Prometheus Operator generates for a PodMonitor's first endpoint, for the
 * parts the chart uses, in the operator's order (generatePodMonitorConfig in
 * prometheus-operator's pkg/prometheus/promcfg.go): drop finished pods, keep the selected pods
 * and the named port, set namespace/container/pod, the default job `<namespace>/<name>` and
 * endpoint, then the PodMonitor's own relabelings. Discovery is left to the caller.
 */
export function podMonitorScrapeConfig(
  namespace: string,
  name: string,
  spec: PodMonitorSpec,
): { relabel_configs: RelabelConfig[]; metrics_path?: string; scrape_interval?: string } {
  const endpoint = spec.podMetricsEndpoints[0]!;
  const podLabel = (key: string) => `__meta_kubernetes_pod_label_${sanitizeLabelName(key)}`;
  const present = (key: string) => `__meta_kubernetes_pod_labelpresent_${sanitizeLabelName(key)}`;
  const relabelings: RelabelConfig[] = [
    { source_labels: ['job'], target_label: '__tmp_prometheus_job_name' },
    { action: 'drop', source_labels: ['__meta_kubernetes_pod_phase'], regex: '(Failed|Succeeded)' },
  ];
  for (const key of Object.keys(spec.selector.matchLabels ?? {}).sort())
    relabelings.push({
      action: 'keep',
      source_labels: [podLabel(key), present(key)],
      regex: `(${spec.selector.matchLabels![key]});true`,
    });
  for (const expression of spec.selector.matchExpressions ?? []) {
    if (expression.operator !== 'Exists')
      throw new Error(`selector operator ${expression.operator} is not emulated here`);
    relabelings.push({ action: 'keep', source_labels: [present(expression.key)], regex: 'true' });
  }
  relabelings.push(
    {
      action: 'keep',
      source_labels: ['__meta_kubernetes_pod_container_port_name'],
      regex: endpoint.port,
    },
    { source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace' },
    { source_labels: ['__meta_kubernetes_pod_container_name'], target_label: 'container' },
    { source_labels: ['__meta_kubernetes_pod_name'], target_label: 'pod' },
    { target_label: 'job', replacement: `${namespace}/${name}` },
    { target_label: 'endpoint', replacement: endpoint.port },
    ...(endpoint.relabelings ?? []).map(snakeCase),
  );
  return {
    relabel_configs: relabelings,
    ...(endpoint.path === undefined ? {} : { metrics_path: endpoint.path }),
    ...(endpoint.interval === undefined ? {} : { scrape_interval: endpoint.interval }),
  };
}
