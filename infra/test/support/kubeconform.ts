import { runProcess } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The oldest and newest Kubernetes the schemas cover (PyPI kubernetes-validate, ensure-kubeconform.sh). */
export const KUBERNETES_VERSIONS = ['1.25.0', '1.37.0'] as const;

/**
 * Kinds of CRDs kubeconform has no schema for offline: KEDA's and the Prometheus Operator's are
 * checked with their models' validators instead (@kubernetes-models/keda, …/prometheus-operator).
 */
export const CUSTOM_KINDS = ['ScaledObject', 'TriggerAuthentication', 'PodMonitor'] as const;

let tool: Promise<{ binary: string; schemaLocation: string }> | undefined;

/** kubeconform and its schemas' location (scripts/ensure-kubeconform.sh builds and caches them once). */
function ensureKubeconform() {
  tool ??= runProcess('bash', ['scripts/ensure-kubeconform.sh'], {
    cwd: root,
    env: process.env,
  }).then((ensured) => {
    const [binary, schemaLocation] = ensured.stdout.trim().split('\n');
    if (ensured.code !== 0 || !binary || !schemaLocation)
      throw new Error(`scripts/ensure-kubeconform.sh failed: ${ensured.stderr}`);
    return { binary, schemaLocation };
  });
  return tool;
}

export interface Conformance {
  code: number | null;
  output: string;
  summary: { valid: number; invalid: number; errors: number; skipped: number };
}

/** kubeconform -strict on rendered manifests against one Kubernetes version's schemas. */
export async function kubeconform(
  manifests: string,
  kubernetesVersion: string,
): Promise<Conformance> {
  const { binary, schemaLocation } = await ensureKubeconform();
  const result = await runProcess(
    binary,
    [
      '-strict',
      '-summary',
      '-output',
      'json',
      '-kubernetes-version',
      kubernetesVersion,
      '-schema-location',
      schemaLocation,
      '-skip',
      CUSTOM_KINDS.join(','),
      '-',
    ],
    { cwd: root, env: process.env, stdin: manifests },
  );
  const parsed = JSON.parse(result.stdout || '{}') as { summary?: Conformance['summary'] };
  return {
    code: result.code,
    output: `${result.stdout}${result.stderr}`,
    summary: parsed.summary ?? { valid: 0, invalid: 0, errors: 0, skipped: 0 },
  };
}
