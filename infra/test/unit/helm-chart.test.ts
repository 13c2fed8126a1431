/**
 * The Helm chart (infra/k8s) as `helm lint` and `helm template` see it — no cluster runs here:
 * every enabled store has its Deployment (probes on /health, the env its service requires,
 * credentials from the Secret), a PodDisruptionBudget and a KEDA ScaledObject on its own
 * consumer group, bounded by the topic's partitions; the API's optional CPU autoscaler. The
 * topics job, credentials and TLS files, and monitoring have their own helm-*.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { groupIdOf, STORES, TICK_TOPIC } from '@tickertape/topology';
import {
  chart,
  containerOf,
  envOf,
  named,
  podOf,
  render,
  runHelm as run,
  template,
  workerName,
} from '../support/helm.js';

describe('the Helm chart', () => {
  it('passes helm lint, with SASL and TLS too, and with every option on', async () => {
    const plain = await run('lint', chart);
    expect(plain.output).toContain('0 chart(s) failed');
    expect(plain.code).toBe(0);
    const secured = await run(
      'lint',
      chart,
      '--set',
      'kafka.ssl=true,kafka.sasl.enabled=true,secrets.kafkaSaslPassword=s3cret',
    );
    expect(secured.code).toBe(0);
    const everything = await run(
      'lint',
      chart,
      '--set',
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
        'monitoring.podMonitor.labels.release=kube-prometheus-stack',
        'api.autoscaling.enabled=true',
      ].join(','),
    );
    expect(everything.output).toContain('0 chart(s) failed');
    expect(everything.code).toBe(0);
  });

  it('renders a Deployment, a PDB and a ScaledObject per store, on its own group and bounded by the partitions', async () => {
    const objects = await render();
    const secret = objects.find((o) => o.kind === 'Secret')!;
    for (const store of STORES) {
      const name = workerName(store);
      const deployment = named(objects, 'Deployment', name)!;
      expect(deployment).toBeDefined();
      const container = containerOf(deployment);
      expect(container.command).toEqual(['node', 'services/rollup-worker/dist/main.js']);
      for (const probe of [container.readinessProbe, container.livenessProbe])
        expect(probe.httpGet).toEqual({ path: '/health', port: 9400 });
      const env = envOf(container);
      expect(env.get('ROLLUP_LEVEL')?.value).toBe(store);
      expect(env.get('GROUP_ID')?.value).toBe(groupIdOf(store));
      expect(env.get('HTTP_PORT')?.value).toBe('9400');
      for (const required of ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'TOPIC', 'DLQ_TOPIC'])
        expect(env.get(required)?.value).toBeTruthy();
      expect(env.get('MONGODB_URI')?.valueFrom?.secretKeyRef).toEqual({
        name: secret.metadata.name,
        key: 'mongodb-uri',
      });
      // Autoscaled: KEDA owns the replica count.
      expect(deployment.spec.replicas).toBeUndefined();
      expect(named(objects, 'PodDisruptionBudget', name)?.spec.maxUnavailable).toBe(1);

      const scaled = named(objects, 'ScaledObject', name)!;
      expect(scaled.spec).toMatchObject({
        scaleTargetRef: { name },
        minReplicaCount: 1,
        maxReplicaCount: 24,
        triggers: [
          {
            type: 'kafka',
            metadata: { consumerGroup: groupIdOf(store), topic: TICK_TOPIC },
          },
        ],
      });
    }
    expect(Object.keys(secret.stringData!).sort()).toEqual(
      ['api-tokens', 'kafka-sasl-password', 'mongodb-uri', 'redis-url'].sort(),
    );
  });

  it('runs the scheduler with the workers’ groups and the API behind a Service, each with a PDB', async () => {
    const objects = await render();
    const scheduler = containerOf(named(objects, 'Deployment', 't-scheduler')!);
    expect(scheduler.readinessProbe.httpGet).toEqual({ path: '/health', port: 9410 });
    const env = envOf(scheduler);
    expect(env.get('FINALITY_GROUPS')?.value?.split(',').sort()).toEqual(
      LEVELS.map((level) => `${level}=${groupIdOf(level)}`).sort(),
    );
    expect(env.get('SEGMENT_GROUP')?.value).toBe('tickertape-segments');
    expect(env.get('REDIS_URL')?.valueFrom?.secretKeyRef.key).toBe('redis-url');
    const api = containerOf(named(objects, 'Deployment', 't-api')!);
    expect(api.livenessProbe.httpGet).toEqual({ path: '/health', port: 9420 });
    expect(envOf(api).get('API_TOKENS')?.valueFrom?.secretKeyRef.key).toBe('api-tokens');
    expect(named(objects, 'Service', 't-api')).toBeDefined();
    for (const name of ['t-scheduler', 't-api'])
      expect(named(objects, 'PodDisruptionBudget', name)).toBeDefined();
    expect(objects.filter((o) => o.kind === 'ScaledObject')).toHaveLength(STORES.length);
  });

  it('follows the values: partitions bound the replicas, a disabled level renders nothing, no autoscaling means fixed replicas', async () => {
    const wide = await render('topic.partitions=12', 'workers.levels.day.enabled=false');
    expect(named(wide, 'ScaledObject', 't-rollup-minute')?.spec.maxReplicaCount).toBe(12);
    expect(wide.filter((o) => o.metadata.name === 't-rollup-day')).toEqual([]);
    const fixed = await render('autoscaling.enabled=false', 'workers.replicas=3');
    expect(fixed.filter((o) => o.kind === 'ScaledObject')).toEqual([]);
    expect(named(fixed, 'Deployment', 't-rollup-hour')?.spec.replicas).toBe(3);
  });

  it('authenticates KEDA with the workers’ SASL credentials when SASL is on', async () => {
    const objects = await render('kafka.sasl.enabled=true', 'kafka.ssl=true');
    const auth = objects.find((o) => o.kind === 'TriggerAuthentication')!;
    expect((auth.spec.secretTargetRef as { parameter: string }[]).map((r) => r.parameter)).toEqual([
      'sasl',
      'username',
      'password',
    ]);
    const scaled = named(objects, 'ScaledObject', 't-rollup-minute')!;
    const trigger = (
      scaled.spec.triggers as { metadata: { tls?: string }; authenticationRef: { name: string } }[]
    )[0]!;
    expect(trigger.authenticationRef.name).toBe(auth.metadata.name);
    expect(trigger.metadata.tls).toBe('enable');
    const env = envOf(containerOf(named(objects, 'Deployment', 't-rollup-minute')!));
    expect(env.get('KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef.key).toBe('kafka-sasl-password');
    expect(env.get('KAFKA_SSL')?.value).toBe('true');
  });

  it('scales the API on CPU when asked, leaving its replica count to the autoscaler', async () => {
    const fixed = await render();
    expect(fixed.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
    expect(named(fixed, 'Deployment', 't-api')?.spec.replicas).toBe(2);

    const scaled = await render(
      'api.autoscaling.enabled=true',
      'api.autoscaling.minReplicas=3',
      'api.autoscaling.maxReplicas=12',
      'api.autoscaling.targetCPUUtilizationPercentage=60',
    );
    const deployment = named(scaled, 'Deployment', 't-api')!;
    expect(deployment.spec).not.toHaveProperty('replicas');
    const hpa = named(scaled, 'HorizontalPodAutoscaler', 't-api')!;
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 't-api' },
      minReplicas: 3,
      maxReplicas: 12,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
        },
      ],
    });
    // Utilisation is relative to the request: without one the autoscaler cannot act.
    expect(containerOf(deployment).resources.requests?.cpu).toBeTruthy();
  });

  it('labels each long-running pod with the scrape job the alert rules expect, annotations optional', async () => {
    const objects = await render();
    const jobs: [string, string][] = [
      ...STORES.map((store): [string, string] => [workerName(store), 'tickertape-worker']),
      ['t-scheduler', 'tickertape-scheduler'],
      ['t-api', 'tickertape-api'],
    ];
    for (const [name, job] of jobs) {
      const pod = podOf(named(objects, 'Deployment', name)!);
      expect(pod.metadata.labels['tickertape.io/scrape-job']).toBe(job);
      expect(pod.metadata.annotations?.['prometheus.io/scrape']).toBe('true');
    }
    expect(objects.filter((o) => o.kind === 'PodMonitor')).toEqual([]);
    const quiet = await render('monitoring.scrapeAnnotations=false');
    for (const [name] of jobs)
      expect(podOf(named(quiet, 'Deployment', name)!).metadata.annotations).toBeUndefined();
  });

  it('refuses to render without a MongoDB URI when it creates the Secret', async () => {
    const result = await template('secrets.mongodbUri=');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('secrets.mongodbUri is required');
  });
});
