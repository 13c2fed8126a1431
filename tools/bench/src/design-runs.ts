import { LEVEL_SPECS, slotStart, type Level } from '@tickertape/buckets';
import { MODEL_LEVELS } from '@tickertape/capacity';
import type { ShellRequest } from '@tickertape/store';
import { parseSeriesKey } from '@tickertape/tick';
import type { DesignKey, DesignRun } from './bench-report.js';
import type { ConsumeResult } from './consume.js';
import type { RunCpu } from './stack-cpu.js';
import type { Stored } from './storage.js';
import type { TickSetShape } from './tick-set.js';
import type { LevelRun } from './workers.js';

/* A design's measured run, from what its consumer or its workers reported. */

/** Stored bytes (data + estimated indexes) per tick the design stored. */
export function bytesPerTick(run: DesignRun): number | undefined {
  if (run.stored === undefined) return undefined;
  return (run.stored.dataBytes + run.stored.indexBytes) / run.ticks;
}

/** A level's `process_cpu_seconds_total` per million ticks it applied. */
export function levelCpuPerMillion(level: LevelRun): number {
  return (level.cpuSeconds * 1e6) / level.applied;
}

const SHELL_LEVELS: readonly Level[] = MODEL_LEVELS;

export function fromConsume(
  key: DesignKey,
  result: ConsumeResult,
  cpu: RunCpu,
  stored?: Stored,
): DesignRun {
  return {
    key,
    ticks: result.ticks,
    seconds: result.seconds,
    ticksPerSec: result.ticks / result.seconds,
    ops: result.ops,
    requests: result.requests,
    cpuSeconds: result.cpuSeconds,
    ...(stored === undefined ? {} : { stored }),
    ...(result.cappedBy === undefined ? {} : { cappedBy: result.cappedBy }),
    ...cpu,
  };
}

/** B and F: the pipeline's rate is the slower level's (both must have committed the topic). */
export function fromLevels(
  key: DesignKey,
  total: number,
  levels: LevelRun[],
  stored: Stored,
  cpu: RunCpu,
): DesignRun {
  const seconds = Math.max(...levels.map((l) => l.seconds));
  return {
    key,
    ticks: total,
    seconds,
    ticksPerSec: total / seconds,
    ops: levels.reduce((sum, l) => sum + l.ops, 0),
    requests: levels.reduce((sum, l) => sum + l.bulkWrites, 0),
    cpuSeconds: levels.reduce((sum, l) => sum + l.cpuSeconds, 0),
    stored,
    levels,
    ...cpu,
  };
}

/** Every shell of the data's range, for every series and both levels the workers run. */
export function allShells(shape: TickSetShape) {
  const series = [
    ...shape.stockSeries.map((key) => ({ key, fields: shape.stockFields })),
    ...shape.trafficSeries.map((key) => ({ key, fields: shape.trafficFields })),
  ].map(({ key, fields }) => ({ seriesKey: key, ...parseSeriesKey(key), fields }));
  return SHELL_LEVELS.map((level) => {
    const shells: ShellRequest[] = [];
    const { slotMs } = LEVEL_SPECS[level];
    for (let start = slotStart(level, shape.startMs); start < shape.endMs; start += slotMs) {
      for (const s of series) shells.push({ series: s, start, compact: false });
    }
    return { level, shells };
  });
}

/** The round with the median ticks/s (the lower middle of an even count). */
export function medianOf(runs: readonly DesignRun[]): DesignRun {
  const sorted = [...runs].sort((x, y) => x.ticksPerSec - y.ticksPerSec);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no rounds to take a median of');
  return middle;
}

/** The median round, carrying every round's ticks/s in run order. */
export function medianRound(runs: readonly DesignRun[]): DesignRun {
  const median = medianOf(runs);
  return runs.length > 1 ? { ...median, rounds: runs.map((r) => r.ticksPerSec) } : median;
}
