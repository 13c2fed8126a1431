import { podOf, type K8sObject } from './helm.js';

/** A target group of Prometheus's file_sd format. */
export interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

/** Prometheus's label-name sanitising of Kubernetes label and annotation names. */
export const sanitizeLabelName = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, '_');

/**
 * The targets Prometheus's `kubernetes_sd_configs` with `role: pod` would discover for one
 * running pod of each workload (Deployment or Job), with the meta labels it sets: one target per
 * declared container port, one without a port for a container that declares none. Written as
 * file_sd groups, so promtool applies a scrape config's real relabeling to them without a
 * cluster (Debian's promtool has no Kubernetes discovery compiled in anyway).
 */
export function podTargets(workloads: K8sObject[], namespace: string): TargetGroup[] {
  return workloads.flatMap((workload, i) => {
    const pod = podOf(workload);
    const ip = `10.0.0.${i + 1}`;
    const podLabels: Record<string, string> = {
      __meta_kubernetes_namespace: namespace,
      __meta_kubernetes_pod_name: `${workload.metadata.name}-0`,
      __meta_kubernetes_pod_ip: ip,
      __meta_kubernetes_pod_phase: 'Running',
      __meta_kubernetes_pod_ready: 'true',
      __meta_kubernetes_pod_controller_kind: workload.kind === 'Job' ? 'Job' : 'ReplicaSet',
    };
    for (const [kind, values] of [
      ['label', pod.metadata.labels],
      ['annotation', pod.metadata.annotations ?? {}],
    ] as const)
      for (const [name, value] of Object.entries(values)) {
        podLabels[`__meta_kubernetes_pod_${kind}_${sanitizeLabelName(name)}`] = value;
        podLabels[`__meta_kubernetes_pod_${kind}present_${sanitizeLabelName(name)}`] = 'true';
      }
    return pod.spec.containers.flatMap((container) => {
      const containerLabels = {
        ...podLabels,
        __meta_kubernetes_pod_container_name: container.name,
      };
      const ports = container.ports ?? [];
      if (ports.length === 0) return [{ targets: [ip], labels: containerLabels }];
      return ports.map((port) => ({
        targets: [`${ip}:${port.containerPort}`],
        labels: {
          ...containerLabels,
          __meta_kubernetes_pod_container_port_name: port.name,
          __meta_kubernetes_pod_container_port_number: String(port.containerPort),
          __meta_kubernetes_pod_container_port_protocol: 'TCP',
        },
      }));
    });
  });
}
