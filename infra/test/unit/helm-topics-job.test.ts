/**
 * The chart's topics job: `tickertape topics create` as a Helm hook before every install and
 * upgrade, with the topic layout from the values, the workers' Kafka and registry settings and
 * credentials, and (on install, when the chart makes the Secret) a hook copy of that Secret,
 * since a pre-install hook runs before the release's own objects exist.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnNode } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';
import {
  containerOf,
  envOf,
  named,
  podOf,
  render,
  type Container,
  type K8sObject,
} from '../support/helm.js';

const HOOK = {
  'helm.sh/hook': 'pre-install,pre-upgrade',
  'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
};

const jobOf = (objects: K8sObject[]) => named(objects, 'Job', 't-topics')!;

const cliDir = fileURLToPath(new URL('../../../services/cli', import.meta.url));

/**
 * The job's arguments after `node services/cli/dist/main.js`, once the real CLI (a process run
 * from its source, with no environment) has accepted them: it gets as far as reading its
 * environment, which fails, instead of refusing an option.
 */
async function cliArguments(container: Container): Promise<string[]> {
  expect(container.command.slice(0, 2)).toEqual(['node', 'services/cli/dist/main.js']);
  const args = container.command.slice(2);
  const cli = spawnNode(
    cliDir,
    ['--import', 'tsx', '--conditions=source', 'src/main.ts', ...args],
    {},
  );
  const { code } = await cli.exited;
  // Exit 2 for a missing variable as for bad usage (README's exit codes): no option was refused.
  expect({ code, refused: /unknown option|error:/.test(cli.output()) }).toEqual({
    code: 2,
    refused: false,
  });
  expect(cli.output()).toContain('CONFIG_INVALID');
  return args;
}

describe("the chart's topics job", () => {
  it('runs `tickertape topics create` before install and upgrade with the values’ layout (replication factor 3 by default) and its own env', async () => {
    const objects = await render();
    const job = jobOf(objects);
    expect(job.metadata.annotations).toMatchObject(HOOK);
    const pod = podOf(job);
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.metadata.labels['tickertape.io/scrape-job']).toBeUndefined();
    expect(await cliArguments(containerOf(job))).toEqual([
      'topics',
      'create',
      '--topic',
      'raw-ticks',
      '--partitions',
      '24',
      '--dlq-topic',
      'raw-ticks-dlq',
      '--replication-factor',
      '3',
    ]);

    const custom = await render(
      'topic.name=ticks',
      'topic.dlq=ticks-dlq',
      'topic.partitions=12',
      'topic.replicationFactor=0',
      'topicsJob.env.KAFKA_SSL_REJECT_UNAUTHORIZED=false',
    );
    expect(envOf(containerOf(jobOf(custom))).get('KAFKA_SSL_REJECT_UNAUTHORIZED')?.value).toBe(
      'false',
    );
    // 0: no --replication-factor, the brokers' default.
    expect(await cliArguments(containerOf(jobOf(custom)))).toEqual([
      'topics',
      'create',
      '--topic',
      'ticks',
      '--partitions',
      '12',
      '--dlq-topic',
      'ticks-dlq',
    ]);
    expect((await render('topicsJob.enabled=false')).filter((o) => o.kind === 'Job')).toEqual([]);
    // Two runs of the real CLI from source (tsx): seconds each on a busy machine.
  }, 30_000);

  it('has the workers’ Kafka and registry settings, TLS files and credentials', async () => {
    const objects = await render(
      'kafka.ssl=true',
      'kafka.sasl.enabled=true',
      'kafka.tls.secretName=kafka-tls',
      'kafka.tls.certKey=tls.crt',
      'kafka.tls.keyKey=tls.key',
      'schemaRegistry.auth.enabled=true',
      'secrets.schemaRegistryUsername=sr-key',
      'secrets.schemaRegistryPassword=sr-secret',
    );
    const job = jobOf(objects);
    const jobContainer = containerOf(job);
    const jobEnv = envOf(jobContainer);
    const workerEnv = envOf(containerOf(named(objects, 'Deployment', 't-rollup-minute')!));
    const hookSecret = named(objects, 'Secret', 't-tickertape-topics')!;
    for (const name of [
      'KAFKA_BROKERS',
      'KAFKA_SSL',
      'KAFKA_SSL_CA_FILE',
      'KAFKA_SSL_CERT_FILE',
      'KAFKA_SSL_KEY_FILE',
      'KAFKA_SASL_MECHANISM',
      'KAFKA_SASL_USERNAME',
      'KAFKA_SASL_PASSWORD',
      'SCHEMA_REGISTRY_URL',
      'SCHEMA_REGISTRY_USERNAME',
      'SCHEMA_REGISTRY_PASSWORD',
      'MONGODB_URI',
    ]) {
      const worker = workerEnv.get(name)!;
      expect({ name, set: worker !== undefined }).toEqual({ name, set: true });
      // The same value, or the same key of the job's copy of the Secret.
      const expected =
        worker.valueFrom === undefined
          ? worker
          : {
              name,
              valueFrom: {
                secretKeyRef: { ...worker.valueFrom.secretKeyRef, name: 't-tickertape-topics' },
              },
            };
      expect(jobEnv.get(name)).toEqual(expected);
    }
    // The CLI checks REDIS_URL at start whatever the command.
    expect(jobEnv.get('REDIS_URL')?.valueFrom?.secretKeyRef.key).toBe('redis-url');
    expect(jobContainer.volumeMounts).toEqual(
      containerOf(named(objects, 'Deployment', 't-rollup-minute')!).volumeMounts,
    );
    expect(podOf(job).spec.volumes).toEqual(
      podOf(named(objects, 'Deployment', 't-rollup-minute')!).spec.volumes,
    );

    // Made just before the job (a lower hook weight), with the release Secret's content.
    expect(hookSecret.metadata.annotations).toMatchObject(HOOK);
    expect(Number(hookSecret.metadata.annotations!['helm.sh/hook-weight'])).toBeLessThan(
      Number(job.metadata.annotations!['helm.sh/hook-weight']),
    );
    expect(hookSecret.stringData).toEqual(named(objects, 'Secret', 't-tickertape')!.stringData);
  });

  it('reads a Secret you manage directly, which exists before the hook runs', async () => {
    const objects = await render('secrets.existingSecret=mine');
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    const env = envOf(containerOf(jobOf(objects)));
    expect(env.get('MONGODB_URI')?.valueFrom?.secretKeyRef).toEqual({
      name: 'mine',
      key: 'mongodb-uri',
    });
  });
});
