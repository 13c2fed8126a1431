/**
 * The short fault profile, end to end, as CI runs it: the real suite process against the real
 * stack (it kills workers and restarts Kafka, MongoDB and Redis), then its summary is checked.
 */
import { describe, expect, it } from '@jest/globals';
import { BAD_INPUT_KINDS } from '@tickertape/producer';
import { spawnService } from '@tickertape/testing';
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaultRunReport } from '../../src/report.js';

const faultsDir = fileURLToPath(new URL('../..', import.meta.url));

describe('fault suite, short profile', () => {
  it('loses nothing and counts nothing twice through kills, restarts, a replay, rescaling and bad input', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tickertape-faults-'));
    const suite = spawnService(faultsDir, {
      KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
      SCHEMA_REGISTRY_URL: process.env.SCHEMA_REGISTRY_URL!,
      MONGODB_URI: process.env.MONGODB_URI!,
      REDIS_URL: process.env.REDIS_URL!,
      FAULT_PROFILE: 'short',
      FAULT_OUT_DIR: out,
      LOG_LEVEL: 'warn',
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('TT_'))),
    });
    const { code } = await suite.exited;
    const report = JSON.parse(
      await readFile(join(out, 'faults-short.json'), 'utf8'),
    ) as FaultRunReport;
    expect({ code, differences: report.verify.sample }).toEqual({ code: 0, differences: [] });
    expect(report.verify.differences).toBe(0);
    expect(report.passed).toBe(true);

    // Every fault the profile plans was carried out.
    expect(report.faultErrors).toEqual([]);
    expect(report.faults['kill-worker']).toBeGreaterThanOrEqual(10);
    expect(report.restarts.map((r) => r.part).sort()).toEqual(['kafka', 'mongo', 'redis']);
    expect(report.faults.replay).toBe(1);
    expect(report.faults.scale).toBe(2);

    // Every bad-input kind, both rounds, is in the DLQ with its reason.
    expect(new Set(report.badInputs.map((bad) => bad.kind))).toEqual(new Set(BAD_INPUT_KINDS));
    expect(report.badInputs).toHaveLength(2 * BAD_INPUT_KINDS.length);
    for (const bad of report.badInputs) expect(bad.deadLettered).toContain(bad.reason);

    // The check covered real data at every level.
    expect(report.load.acknowledged).toBeGreaterThan(5000);
    for (const store of report.verify.stores.filter((s) => s.store !== 'dead-letters'))
      expect(store.expected).toBeGreaterThan(0);
  }, 600_000);
});
