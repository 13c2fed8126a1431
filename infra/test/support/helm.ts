import { runProcess } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** The chart under test. */
export const chart = `${root}/infra/k8s`;

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string } };
}
export interface Container {
  name: string;
  image: string;
  command: string[];
  env: EnvVar[];
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  readinessProbe: { httpGet: { path: string; port: number } };
  livenessProbe: { httpGet: { path: string; port: number } };
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
}
export interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    volumes?: {
      name: string;
      secret?: { secretName: string; items: { key: string; path: string }[] };
    }[];
    restartPolicy?: string;
    serviceAccountName?: string;
  };
}
export interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
  stringData?: Record<string, string>;
}

let helm: string | undefined;

/** The helm binary the chart is tested with (scripts/ensure-helm.sh builds it once, ~3 min). */
export async function ensureHelm(): Promise<string> {
  if (helm !== undefined) return helm;
  const ensured = await runProcess('bash', ['scripts/ensure-helm.sh'], {
    cwd: root,
    env: process.env,
  });
  if (ensured.code !== 0) throw new Error(`scripts/ensure-helm.sh failed: ${ensured.stderr}`);
  helm = ensured.stdout.trim();
  return helm;
}

export async function runHelm(...args: string[]) {
  const result = await runProcess(await ensureHelm(), args, {
    cwd: root,
    env: process.env,
  });
  return { ...result, output: `${result.stdout}${result.stderr}` };
}

/** What the chart refuses to render without (a later `--set` of the same value overrides it). */
export const REQUIRED_VALUES = ['secrets.apiTokens=chart-test-token-0123456789'];

/** `helm template` of release `t` with the required values and each `--set`, unparsed. */
export const template = (...set: string[]) =>
  runHelm('template', 't', chart, ...[...REQUIRED_VALUES, ...set].flatMap((s) => ['--set', s]));

/** `helm template` of release `t` with each `--set`, parsed; throws helm's message if it refuses. */
export async function render(...set: string[]): Promise<K8sObject[]> {
  const result = await template(...set);
  if (result.code !== 0) throw new Error(`helm template ${set.join(' ')}: ${result.output}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((doc): doc is K8sObject => doc !== null);
}

export const named = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
export const podOf = (workload: K8sObject) => (workload.spec as { template: PodTemplate }).template;
export const containerOf = (workload: K8sObject) => podOf(workload).spec.containers[0]!;
export const envOf = (container: Container) => new Map(container.env.map((e) => [e.name, e]));
export const workerName = (store: string) =>
  store === 'segments' ? 't-segment-worker' : `t-rollup-${store}`;
