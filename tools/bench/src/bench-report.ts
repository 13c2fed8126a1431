import type { LatencyResult } from './latency.js';
import type { DensityProbeResult } from './density.js';
import type { CpuProfileRun } from './cpu-profile-run.js';
import type { LiveReport } from './live/live-types.js';
import type { LoadResult } from './load.js';
import type { Machine } from './machine.js';
import type { ServerProbe } from './probe.js';
import type { ReadResults } from './reads.js';
import type { BenchSettings } from './settings.js';
import type { StackCpu, StackLookup } from './stack-cpu.js';
import type { Stored } from './storage.js';
import type { TickSetShape } from './tick-set.js';
import type { LevelRun } from './workers.js';

/* What a benchmark run reports (docs/benchmarks.json): written by run.ts, read by the report's writers. */

export type DesignKey = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'S';

/** One design's run: what it consumed, how fast, what it cost and what it left stored. */
export interface DesignRun {
  key: DesignKey;
  ticks: number;
  seconds: number;
  ticksPerSec: number;
  /** Document-level writes (inserts, upserts, bucket updates); 0 for A. */
  ops: number;
  /** Database round trips (insertOne calls, insertMany or bulk write calls). */
  requests: number;
  cpuSeconds: number;
  /** What its database holds afterwards; absent for A, which stores nothing. */
  stored?: Stored;
  cappedBy?: 'time' | 'ticks';
  /** B, F and S: each level's worker. */
  levels?: LevelRun[];
  /** F: preallocating the shells, before its clock started. */
  shells?: { documents: number; seconds: number };
  /** A, B and S: ticks/s of every round, in run order; the figures are the median round's. */
  rounds?: number[];
  /**
   * CPU seconds of the local stack's database server, Kafka and registry over the same run
   * (/proc), or why not measured; absent in reports from before it.
   */
  stackCpu?: StackCpu;
  /** Share of all the machine's cores busy over the run, anyone's processes (/proc/stat). */
  machineBusy?: number;
}

export interface BenchReport {
  settings: BenchSettings;
  startedAt: number;
  finishedAt: number;
  machine: Machine;
  load: LoadResult & { partitions: number; shape: TickSetShape };
  designs: DesignRun[];
  reads: ReadResults;
  latency: LatencyResult;
  probe: ServerProbe;
  /** Stored bytes per tick by density (density.ts); absent in reports from before it. */
  density?: DensityProbeResult;
  /** The same probe with sketches off and on (SKETCH_DENSITY_PRESETS); absent before issue 36. */
  sketchDensity?: DensityProbeResult;
  /** Where the stack's processes were found for `stackCpu`; absent in reports from before it. */
  stack?: StackLookup;
  /** B's workers under `node --cpu-prof`, one extra round; absent when not profiled. */
  cpuProfile?: CpuProfileRun;
  /** The live grid (live/run-live.ts); absent in reports from before it. */
  live?: LiveReport;
}
