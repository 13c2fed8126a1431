/**
 * The chart's values as a first install meets them (issue 38): a partition count that is safe to
 * keep forever and said to be permanent, lag thresholds that follow each level's budget, the
 * API's tokens required at render time instead of a pod that exits with CONFIG_INVALID, a
 * values schema that names a wrong value, the usual pod settings, and rendered manifests that
 * Kubernetes' own schemas (kubeconform) and KEDA's accept.
 */
import { describe, expect, it } from '@jest/globals';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { FRESHNESS_BUDGET_DEFAULTS, STORES } from '@tickertape/topology';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  chart,
  containerOf,
  envOf,
  named,
  podOf,
  render,
  REQUIRED_VALUES,
  runHelm,
  template,
  workerName,
  type K8sObject,
} from '../support/helm.js';
import { kubeconform, KUBERNETES_VERSIONS } from '../support/kubeconform.js';

const WORKLOADS = [...STORES.map(workerName), 't-scheduler', 't-api', 't-topics'];
const workload = (objects: K8sObject[], name: string) =>
  objects.find((o) => (o.kind === 'Deployment' || o.kind === 'Job') && o.metadata.name === name)!;
const thresholdOf = (objects: K8sObject[], store: string) =>
  (
    named(objects, 'ScaledObject', workerName(store))!.spec.triggers as {
      metadata: { lagThreshold: string };
    }[]
  )[0]!.metadata.lagThreshold;

/** NOTES.txt as `helm install` prints it: `helm template` leaves it out, so a copy of the chart renders it as a value. */
async function renderNotes(...set: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tickertape-chart-notes-'));
  try {
    await cp(chart, dir, { recursive: true });
    await cp(join(chart, 'templates/NOTES.txt'), join(dir, 'notes-under-test.txt'));
    await writeFile(
      join(dir, 'templates/notes-under-test.yaml'),
      'notes: {{ tpl (.Files.Get "notes-under-test.txt") . | toJson }}\n',
    );
    const result = await runHelm(
      'template',
      't',
      dir,
      '--show-only',
      'templates/notes-under-test.yaml',
      ...[...REQUIRED_VALUES, ...set].flatMap((s) => ['--set', s]),
    );
    if (result.code !== 0) throw new Error(result.output);
    return (parse(result.stdout) as { notes: string }).notes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the chart’s values', () => {
  it('creates the topic with 24 partitions by default and says in NOTES.txt that they are permanent', async () => {
    const values = parse(await readFile(join(chart, 'values.yaml'), 'utf8')) as {
      topic: { partitions: number };
    };
    expect(values.topic.partitions).toBe(24);
    const objects = await render();
    expect(named(objects, 'ScaledObject', 't-rollup-minute')?.spec.maxReplicaCount).toBe(24);
    const notes = await renderNotes('topic.partitions=12');
    expect(notes).toContain('PARTITIONS ARE PERMANENT');
    expect(notes).toContain('raw-ticks with 12 partitions');
    expect(notes).toContain('at most 12 busy workers');
  });

  it('refuses to render without the API’s tokens, unless the Secret is yours or there is no API', async () => {
    const missing = await template('secrets.apiTokens=');
    expect(missing.code).not.toBe(0);
    expect(missing.output).toContain('secrets.apiTokens is required');
    expect(missing.output).toContain('CONFIG_INVALID');
    // The services check each token's length at start: the schema checks it at install.
    const short = await template('secrets.apiTokens=too-short');
    expect(short.code).not.toBe(0);
    expect(short.output).toContain('secrets.apiTokens');
    expect((await template('secrets.apiTokens=', 'secrets.existingSecret=vault-synced')).code).toBe(
      0,
    );
    expect((await template('secrets.apiTokens=', 'api.enabled=false')).code).toBe(0);
  });

  it('derives each level’s lag threshold from the expected rate × (its budget + headroom), and gives the worker that budget', async () => {
    const at = async (rate: number) => render(`autoscaling.ticksPerSecond=${rate}`);
    for (const rate of [170, 1000]) {
      const objects = await at(rate);
      for (const store of STORES) {
        const budgetMs = FRESHNESS_BUDGET_DEFAULTS[store];
        expect({ store, threshold: thresholdOf(objects, store) }).toEqual({
          store,
          threshold: String(Math.ceil(rate * (budgetMs / 1000 + 30))),
        });
        const env = envOf(containerOf(named(objects, 'Deployment', workerName(store))!));
        expect(env.get('FRESHNESS_BUDGET_MS')?.value).toBe(String(budgetMs));
        // Past rate × budget: a level that keeps up is not scaled out for what it holds.
        expect(Number(thresholdOf(objects, store))).toBeGreaterThan((rate * budgetMs) / 1000);
      }
    }
    // The case: at 170 ticks/s the hour level holds 10,200 records by design.
    expect(thresholdOf(await at(170), 'hour')).toBe('15300');

    const tuned = await render(
      'workers.levels.hour.freshnessBudgetMs=120000',
      'workers.levels.day.lagThreshold=777',
      'autoscaling.headroomSeconds=0',
    );
    expect(thresholdOf(tuned, 'hour')).toBe('120000');
    expect(thresholdOf(tuned, 'day')).toBe('777');
    expect(
      envOf(containerOf(named(tuned, 'Deployment', 't-rollup-hour')!)).get('FRESHNESS_BUDGET_MS')
        ?.value,
    ).toBe('120000');
    const notes = await renderNotes('autoscaling.ticksPerSecond=170');
    expect(notes).toContain('hour: 15300 records per replica');
    // One budget for the worker and its threshold: not a second one in the workers' env.
    const twice = await template('workers.env.FRESHNESS_BUDGET_MS=1000');
    expect(twice.code).not.toBe(0);
    expect(twice.output).toContain('set workers.levels.<level>.freshnessBudgetMs instead');
  });

  it('takes replicas, least replicas and resources per level', async () => {
    const fixed = await render(
      'autoscaling.enabled=false',
      'workers.replicas=2',
      'workers.levels.minute.replicas=6',
      'workers.levels.minute.resources.requests.cpu=2',
    );
    expect(named(fixed, 'Deployment', 't-rollup-minute')?.spec.replicas).toBe(6);
    expect(named(fixed, 'Deployment', 't-rollup-hour')?.spec.replicas).toBe(2);
    expect(containerOf(named(fixed, 'Deployment', 't-rollup-minute')!).resources).toEqual({
      requests: { cpu: 2 },
    });
    expect(containerOf(named(fixed, 'Deployment', 't-rollup-day')!).resources.requests?.cpu).toBe(
      '250m',
    );
    const scaled = await render('workers.levels.day.minReplicas=0');
    expect(named(scaled, 'ScaledObject', 't-rollup-day')?.spec.minReplicaCount).toBe(0);
    expect(named(scaled, 'ScaledObject', 't-rollup-hour')?.spec.minReplicaCount).toBe(1);
  });

  it('runs every pod as the image’s non-root user, read-only, without capabilities, with the scheduling and account values', async () => {
    const objects = await render(
      'nodeSelector.pool=tickertape',
      'tolerations[0].key=dedicated,tolerations[0].operator=Exists,tolerations[0].effect=NoSchedule',
      'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=zone',
      'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=Exists',
      'imagePullSecrets[0].name=regcred',
      'serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=arn:aws:iam::1:role/t',
    );
    const account = named(objects, 'ServiceAccount', 't-tickertape')!;
    expect(account.metadata.annotations).toEqual({
      'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/t',
    });
    for (const name of WORKLOADS) {
      const pod = podOf(workload(objects, name)).spec as Record<string, unknown>;
      expect({ name, pod }).toMatchObject({
        name,
        pod: {
          // The topics job runs before the release's account exists (a pre-install hook).
          serviceAccountName: name === 't-topics' ? 'default' : 't-tickertape',
          automountServiceAccountToken: false,
          imagePullSecrets: [{ name: 'regcred' }],
          securityContext: { runAsNonRoot: true, runAsUser: 1000 },
          nodeSelector: { pool: 'tickertape' },
          tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
          affinity: { nodeAffinity: expect.anything() },
        },
      });
      expect(containerOf(workload(objects, name))).toMatchObject({
        image: 'tickertape:0.1.0',
        securityContext: {
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        },
      });
    }
    const theirs = await render('serviceAccount.create=false', 'serviceAccount.name=ops');
    expect(theirs.filter((o) => o.kind === 'ServiceAccount')).toEqual([]);
    for (const name of WORKLOADS)
      expect(podOf(workload(theirs, name)).spec.serviceAccountName).toBe('ops');
  });

  it('runs the chart’s appVersion unless image.tag says otherwise', async () => {
    const meta = parse(await readFile(join(chart, 'Chart.yaml'), 'utf8')) as { appVersion: string };
    const image = (objects: K8sObject[]) =>
      containerOf(named(objects, 'Deployment', 't-api')!).image;
    expect(image(await render())).toBe(`tickertape:${meta.appVersion}`);
    expect(image(await render('image.tag=1.2.3', 'image.repository=registry.example/tt'))).toBe(
      'registry.example/tt:1.2.3',
    );
  });

  it('rejects wrong values with the schema, naming each', async () => {
    for (const [set, message] of [
      [['topic.partitions=0'], 'topic.partitions: Must be greater than or equal to 1'],
      [['autoscaling.lagThreshold=5000'], 'Additional property lagThreshold is not allowed'],
      [['autoscaling.ticksPerSecond=0'], 'autoscaling.ticksPerSecond'],
      [['workers.levels.hour.freshnessBudgetMs=7200000'], 'freshnessBudgetMs'],
      [['image.pullPolicy=Sometimes'], 'image.pullPolicy'],
      [['logLevel=verbose'], 'logLevel'],
      [['kafka.sasl.mechanism=gssapi'], 'kafka.sasl.mechanism'],
      [['topic.partitons=12'], 'Additional property partitons is not allowed'],
    ] as const) {
      const result = await template(...set);
      expect({ set, code: result.code }).toEqual({ set, code: 1 });
      expect(result.output).toContain("values don't meet the specifications of the schema");
      expect(result.output).toContain(message);
    }
  });
});

describe('the rendered manifests', () => {
  const combinations = [
    [],
    [
      'kafka.ssl=true',
      'kafka.sasl.enabled=true',
      'secrets.kafkaSaslPassword=s3cret',
      'kafka.tls.secretName=kafka-tls',
      'kafka.tls.certKey=tls.crt',
      'kafka.tls.keyKey=tls.key',
      'schemaRegistry.auth.enabled=true',
      'secrets.schemaRegistryUsername=sr-key',
      'secrets.schemaRegistryPassword=sr-secret',
      'monitoring.podMonitor.enabled=true',
      'api.autoscaling.enabled=true',
      'imagePullSecrets[0].name=regcred',
      'nodeSelector.pool=tickertape',
      'tolerations[0].key=dedicated,tolerations[0].operator=Exists',
    ],
    ['autoscaling.enabled=false', 'serviceAccount.create=false', 'secrets.existingSecret=theirs'],
  ];

  it('pass kubeconform -strict against the oldest and newest Kubernetes schemas', async () => {
    for (const set of combinations) {
      const rendered = await template(...set);
      expect(rendered.code).toBe(0);
      const kinds = parseAllDocuments(rendered.stdout)
        .map((doc) => (doc.toJS() as K8sObject | null)?.kind)
        .filter((kind) => kind !== undefined);
      for (const version of KUBERNETES_VERSIONS) {
        const result = await kubeconform(rendered.stdout, version);
        expect({
          set,
          version,
          code: result.code,
          output: result.code === 0 ? '' : result.output,
        }).toEqual({
          set,
          version,
          code: 0,
          output: '',
        });
        const custom = kinds.filter((kind) =>
          ['ScaledObject', 'TriggerAuthentication', 'PodMonitor'].includes(kind),
        );
        expect(result.summary).toMatchObject({
          valid: kinds.length - custom.length,
          skipped: custom.length,
        });
      }
    }
    // The first run builds kubeconform and fetches the schemas (scripts/test.sh does it before).
  }, 300_000);

  it('fail kubeconform on a field Kubernetes does not have', async () => {
    const rendered = await template('affinity.nodeAffinity.preferredEverywhere=true');
    expect(rendered.code).toBe(0);
    const result = await kubeconform(rendered.stdout, KUBERNETES_VERSIONS[0]);
    expect(result.code).toBe(1);
    expect(result.output).toContain("additional properties 'preferredEverywhere' not allowed");
  }, 300_000);

  it('give KEDA and the Prometheus Operator objects their CRDs accept', async () => {
    const objects = await render(...combinations[1]!);
    const custom = objects.filter((o) =>
      ['ScaledObject', 'TriggerAuthentication', 'PodMonitor'].includes(o.kind),
    );
    expect(custom.map((o) => o.kind).sort()).toEqual([
      'PodMonitor',
      ...STORES.map(() => 'ScaledObject'),
      'TriggerAuthentication',
    ]);
    for (const object of custom) {
      const model =
        object.kind === 'ScaledObject'
          ? new ScaledObject(object as never)
          : object.kind === 'TriggerAuthentication'
            ? new TriggerAuthentication(object)
            : new PodMonitor(object as never);
      expect(() => model.validate()).not.toThrow();
    }
    // The models do check: KEDA wants lagThreshold as a string and replica counts as integers.
    const scaled = custom.find((o) => o.kind === 'ScaledObject')!;
    const broken = structuredClone(scaled) as K8sObject & { spec: { minReplicaCount: unknown } };
    broken.spec.minReplicaCount = '1';
    expect(() => new ScaledObject(broken as never).validate()).toThrow(
      /minReplicaCount must be integer/,
    );
  });
});
