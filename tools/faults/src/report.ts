import type { LoadSummary } from '@tickertape/producer';
import type { VerifyReport } from '@tickertape/verify';
import type { FleetCounters } from './fleet.js';
import type { BrokerAction } from './cluster/broker-faults.js';
import type { Healed } from './cluster/network-faults.js';
import type { Injected } from './inject.js';
import type { RebuildRun } from './rebuild.js';
import type { FaultKind, NetworkTarget, NetworkToxic } from './schedule.js';

/** Everything a run did and found; written as JSON, summarised by formatFaultRun. */
export interface FaultRunReport {
  profile: string;
  seed: number;
  /** Whether the run kept quantile sketches and a weighted field (FAULT_SKETCHES). */
  sketches: boolean;
  topic: string;
  database: string;
  startedAt: string;
  elapsedMs: number;
  load: Pick<LoadSummary, 'generated' | 'acknowledged' | 'failed'>;
  /** Faults planned and carried out, by kind (the ones that failed are in `faultErrors`). */
  planned: Record<FaultKind, number>;
  faults: Record<FaultKind, number>;
  faultErrors: string[];
  /** Stack restarts, with how long each part took to answer again. */
  restarts: { part: string; ms: number }[];
  /** `tickertape rebuild` runs under the load: the range rebuilt, what the command reported. */
  rebuilds: RebuildRun[];
  /** The cluster profiles': what was done to which broker, the network faults, the clock steps. */
  cluster?: {
    brokers: BrokerAction[];
    /** `healed`: through Toxiproxy's API, or by restarting it when the API hung. */
    network: { target: NetworkTarget; toxic: NetworkToxic; ms: number; healed: Healed }[];
    clock: { store: string; stepMs: number; offsetMs: number }[];
  };
  processes: FleetCounters;
  badInputs: (Injected & { deadLettered: string[] })[];
  verify: Pick<VerifyReport, 'tally' | 'stores'> & {
    differences: number;
    sample: VerifyReport['differences'];
  };
  passed: boolean;
}

/**
 * Whether every tick a producer was told was written is in the topic: the topic holds the load's
 * records and the bad ones, and the load's producers are idempotent (a retried batch is written
 * once), so fewer than acknowledged + bad means an acknowledged tick was lost.
 */
export function acknowledgedKept(report: Omit<FaultRunReport, 'passed'>): boolean {
  return report.verify.tally.records - report.badInputs.length >= report.load.acknowledged;
}

/**
 * A run passes when the checker found no difference, no acknowledged tick is missing from the
 * topic, every planned fault was carried out, and bad input was published and every bad record
 * is in the DLQ with the reason it should have.
 */
export function passed(report: Omit<FaultRunReport, 'passed'>): boolean {
  return (
    report.verify.differences === 0 &&
    acknowledgedKept(report) &&
    report.faultErrors.length === 0 &&
    (Object.keys(report.planned) as FaultKind[]).every(
      (kind) => report.faults[kind] === report.planned[kind],
    ) &&
    report.badInputs.length > 0 &&
    report.badInputs.every((bad) => bad.deadLettered.includes(bad.reason))
  );
}

/** The load generators' summaries, added up. */
export function totalLoad(summaries: readonly LoadSummary[]): FaultRunReport['load'] {
  return summaries.reduce(
    (sum, s) => ({
      generated: sum.generated + s.generated,
      acknowledged: sum.acknowledged + s.acknowledged,
      failed: sum.failed + s.failed,
    }),
    { generated: 0, acknowledged: 0, failed: 0 },
  );
}
