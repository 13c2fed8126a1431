/**
 * The chart's credential and certificate slots, by the names the services' env schemas read
 * (packages/config/src/security-fields.ts): the registry's basic auth from the Secret for the
 * processes that call the registry, Kafka's TLS files mounted from a Secret you name into every
 * pod that talks to Kafka, with the variables pointing at them, and KEDA given the same.
 */
import { describe, expect, it } from '@jest/globals';
import { STORES } from '@tickertape/topology';
import { kafkaSecurityShape, registryAuthShape } from '@tickertape/config';
import {
  containerOf,
  envOf,
  named,
  podOf,
  render,
  template,
  workerName,
  type K8sObject,
} from '../support/helm.js';

const WORKERS = STORES.map(workerName);
/** Every workload that talks to Kafka: each worker, the scheduler (lag), the API (lag), the topics job. */
const KAFKA_PODS = [...WORKERS, 't-scheduler', 't-api', 't-topics'];
const FILE_VARIABLES = ['KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'];

const workload = (objects: K8sObject[], name: string) =>
  objects.find((o) => (o.kind === 'Deployment' || o.kind === 'Job') && o.metadata.name === name)!;

/** The file each *_FILE variable names, resolved through the pod's mounts to a Secret's key. */
function tlsFiles(objects: K8sObject[], name: string): Record<string, string> {
  const pod = podOf(workload(objects, name));
  const container = pod.spec.containers[0]!;
  const files: Record<string, string> = {};
  for (const variable of container.env.filter((e) => e.name.endsWith('_FILE'))) {
    const path = variable.value!;
    const mount = container.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`));
    expect({ variable: variable.name, mounted: mount?.readOnly }).toEqual({
      variable: variable.name,
      mounted: true,
    });
    const volume = pod.spec.volumes?.find((v) => v.name === mount!.name);
    const item = volume?.secret?.items.find((i) => `${mount!.mountPath}/${i.path}` === path);
    files[variable.name] = `${volume?.secret?.secretName}/${item?.key}`;
  }
  return files;
}

describe('the chart’s credentials and TLS files', () => {
  it('mounts nothing and passes no registry credentials by default', async () => {
    const objects = await render();
    for (const name of KAFKA_PODS) {
      const pod = podOf(workload(objects, name));
      expect({ name, volumes: pod.spec.volumes }).toEqual({ name, volumes: undefined });
      expect(pod.spec.containers[0]!.volumeMounts).toBeUndefined();
      const env = envOf(pod.spec.containers[0]!);
      for (const variable of [...FILE_VARIABLES, 'SCHEMA_REGISTRY_USERNAME', 'KAFKA_SSL'])
        expect(env.has(variable)).toBe(false);
    }
    expect(named(objects, 'TriggerAuthentication', 't-kafka')).toBeUndefined();
  });

  it('mounts the CA from the named Secret into every Kafka pod, with KAFKA_SSL_CA_FILE pointing at it', async () => {
    const objects = await render('kafka.ssl=true', 'kafka.tls.secretName=kafka-tls');
    for (const name of KAFKA_PODS)
      expect({ name, files: tlsFiles(objects, name) }).toEqual({
        name,
        files: { KAFKA_SSL_CA_FILE: 'kafka-tls/ca.crt' },
      });
  });

  it('mounts a client certificate and key for mutual TLS, and hands all three to KEDA', async () => {
    const objects = await render(
      'kafka.ssl=true',
      'kafka.tls.secretName=client-tls',
      'kafka.tls.certKey=user.crt',
      'kafka.tls.keyKey=user.key',
    );
    for (const name of KAFKA_PODS) {
      expect({ name, files: tlsFiles(objects, name) }).toEqual({
        name,
        files: {
          KAFKA_SSL_CA_FILE: 'client-tls/ca.crt',
          KAFKA_SSL_CERT_FILE: 'client-tls/user.crt',
          KAFKA_SSL_KEY_FILE: 'client-tls/user.key',
        },
      });
      expect(envOf(containerOf(workload(objects, name))).get('KAFKA_SSL')?.value).toBe('true');
    }
    // The names are the env schemas' own.
    for (const variable of FILE_VARIABLES)
      expect(Object.keys(kafkaSecurityShape)).toContain(variable);

    const auth = named(objects, 'TriggerAuthentication', 't-kafka')!;
    expect(auth.spec.secretTargetRef).toEqual([
      { parameter: 'ca', name: 'client-tls', key: 'ca.crt' },
      { parameter: 'cert', name: 'client-tls', key: 'user.crt' },
      { parameter: 'key', name: 'client-tls', key: 'user.key' },
    ]);
    for (const name of WORKERS)
      expect(named(objects, 'ScaledObject', name)?.spec.triggers).toMatchObject([
        { metadata: { tls: 'enable' }, authenticationRef: { name: 't-kafka' } },
      ]);
  });

  it('refuses TLS files the services would refuse', async () => {
    for (const [set, message] of [
      [['kafka.tls.secretName=kafka-tls'], 'kafka.tls.secretName needs kafka.ssl=true'],
      [
        ['kafka.ssl=true', 'kafka.tls.secretName=kafka-tls', 'kafka.tls.certKey=tls.crt'],
        'kafka.tls.certKey and kafka.tls.keyKey go together',
      ],
    ] as const) {
      const result = await template(...set);
      expect(result.code).not.toBe(0);
      expect(result.output).toContain(message);
    }
  });

  it('gives the registry credentials from the Secret to the workers and the topics job only', async () => {
    const objects = await render(
      'schemaRegistry.auth.enabled=true',
      'secrets.schemaRegistryUsername=sr-key',
      'secrets.schemaRegistryPassword=sr-secret',
    );
    expect(named(objects, 'Secret', 't-tickertape')?.stringData).toMatchObject({
      'schema-registry-username': 'sr-key',
      'schema-registry-password': 'sr-secret',
    });
    const variables = Object.keys(registryAuthShape);
    expect(variables.sort()).toEqual(['SCHEMA_REGISTRY_PASSWORD', 'SCHEMA_REGISTRY_USERNAME']);
    for (const name of [...WORKERS, 't-topics']) {
      const env = envOf(containerOf(workload(objects, name)));
      const secret = name === 't-topics' ? 't-tickertape-topics' : 't-tickertape';
      expect(env.get('SCHEMA_REGISTRY_USERNAME')?.valueFrom?.secretKeyRef).toEqual({
        name: secret,
        key: 'schema-registry-username',
      });
      expect(env.get('SCHEMA_REGISTRY_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
        name: secret,
        key: 'schema-registry-password',
      });
    }
    for (const name of ['t-scheduler', 't-api'])
      expect(envOf(containerOf(workload(objects, name))).has('SCHEMA_REGISTRY_PASSWORD')).toBe(
        false,
      );

    const theirs = await render(
      'schemaRegistry.auth.enabled=true',
      'secrets.existingSecret=vault-synced',
    );
    expect(
      envOf(containerOf(workload(theirs, 't-rollup-hour'))).get('SCHEMA_REGISTRY_PASSWORD')
        ?.valueFrom?.secretKeyRef,
    ).toEqual({ name: 'vault-synced', key: 'schema-registry-password' });

    const missing = await template('schemaRegistry.auth.enabled=true');
    expect(missing.code).not.toBe(0);
    expect(missing.output).toContain('secrets.schemaRegistryUsername is required');
  });

  it('names the SASL mechanism for KEDA the way its Kafka scaler spells it', async () => {
    for (const [mechanism, mode] of [
      ['plain', 'plaintext'],
      ['PLAIN', 'plaintext'],
      ['scram-sha-256', 'scram_sha256'],
      ['scram-sha-512', 'scram_sha512'],
    ]) {
      const objects = await render('kafka.sasl.enabled=true', `kafka.sasl.mechanism=${mechanism}`);
      expect(named(objects, 'Secret', 't-tickertape')?.stringData?.['kafka-sasl-mode']).toBe(mode);
      expect(
        envOf(containerOf(workload(objects, 't-rollup-day'))).get('KAFKA_SASL_MECHANISM')?.value,
      ).toBe(mechanism);
    }
  });
});
