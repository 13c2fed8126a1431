/**
 * The cluster fault profile's short version, as CI runs it: `scripts/faults.sh --profile
 * cluster-short` starts a three-broker stack of its own with Toxiproxy in front of every part,
 * kills the partitions' leader, restarts the controller, pauses a broker, cuts and slows the
 * network, steps a worker's clock; then the checker. Its summary is checked here.
 */
import { describe, expect, it } from '@jest/globals';
import { BAD_INPUT_KINDS } from '@tickertape/producer';
import { runProcess } from '@tickertape/testing';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaultRunReport } from '../../src/report.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

describe('fault suite, cluster-short profile', () => {
  it('loses no acknowledged tick and counts nothing twice through broker kills, a pause, network faults and a clock step', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tickertape-cluster-faults-'));
    const env: NodeJS.ProcessEnv = { ...process.env, FAULT_OUT_DIR: out, LOG_LEVEL: 'warn' };
    // The run's own stack: none of the developer's stack's addresses or settings.
    for (const name of ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'MONGODB_URI', 'REDIS_URL'])
      delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith('TT_')) delete env[name];
    const run = await runProcess('bash', ['scripts/faults.sh', '--profile', 'cluster-short'], {
      cwd: root,
      env,
    });
    // The suite's own summary and errors, shown when it did not finish.
    expect({
      code: run.code,
      output: run.code === 0 ? '' : `${run.stdout}${run.stderr}`.slice(-4000),
    }).toEqual({
      code: 0,
      output: '',
    });
    const report = JSON.parse(
      await readFile(join(out, 'faults-cluster-short.json'), 'utf8'),
    ) as FaultRunReport;
    expect({ code: run.code, differences: report.verify.sample }).toEqual({
      code: 0,
      differences: [],
    });
    expect(report.passed).toBe(true);
    expect(report.faultErrors).toEqual([]);

    // Every acknowledged tick is in the topic: records = the load's + the bad ones.
    expect(report.load.acknowledged).toBeGreaterThan(5000);
    expect(report.verify.tally.records - report.badInputs.length).toBeGreaterThanOrEqual(
      report.load.acknowledged,
    );

    // The faults happened, to the brokers the profile names.
    const brokers = report.cluster!.brokers;
    expect(brokers.map((b) => [b.action, b.as])).toEqual([
      ['kill', 'leader'],
      ['restart', 'controller'],
      ['pause', 'leader'],
    ]);
    expect(new Set(report.cluster!.network.map((n) => n.target))).toEqual(
      new Set(['kafka', 'mongo', 'redis', 'registry']),
    );
    expect(report.cluster!.clock).toHaveLength(1);

    for (const bad of report.badInputs) expect(bad.deadLettered).toContain(bad.reason);
    expect(new Set(report.badInputs.map((bad) => bad.kind))).toEqual(new Set(BAD_INPUT_KINDS));
    for (const store of report.verify.stores.filter((s) => s.store !== 'dead-letters'))
      expect(store.expected).toBeGreaterThan(0);
  }, 900_000);
});
