import {
  LevelPolicy,
  partitionOf,
  retentionPlan,
  type Level,
  type LevelMode,
  type MetricPolicyChange,
  type PinChange,
  type AutoSkipChange,
  type RetentionPolicy,
} from '@tickertape/buckets';
import { shellDocument } from '../layout/shells.js';
import type { BucketRecord } from '../port/partitions.js';
import type { RetentionRun, ShellRequest, ShellSeries, Upkeep } from '../port/upkeep.js';
import { copy, settle, startOf, ticksOf } from './collections.js';
import type { MemoryState } from './state.js';

/** Shells, retention and the level policy over the in-memory state, as the Mongo store does them. */
export class MemoryUpkeep implements Upkeep {
  constructor(private readonly state: MemoryState) {}

  recentSeries(level: Level, sinceMs: number, untilMs: number): Promise<ShellSeries[]> {
    const names = new Set([partitionOf(level, sinceMs).name, partitionOf(level, untilMs).name]);
    const found = new Map<string, ShellSeries & { fieldSet: Set<string> }>();
    for (const name of names) {
      for (const record of this.state.collections.records(name)) {
        const start = startOf(record);
        if (!(start >= sinceMs && start <= untilMs && ticksOf(record) > 0)) continue;
        const series = String(record.series);
        const seen = found.get(series) ?? {
          seriesKey: series,
          metric: String(record.metric),
          tags: copy((record.tags ?? {}) as Record<string, string>),
          fields: [],
          fieldSet: new Set<string>(),
        };
        for (const field of Object.keys(record.f ?? {})) seen.fieldSet.add(field);
        found.set(series, seen);
      }
    }
    return Promise.resolve(
      [...found.values()].map(({ fieldSet, ...series }) => ({
        ...series,
        fields: [...fieldSet].sort(),
      })),
    );
  }

  /** A shell never overwrites a bucket: an existing `_id` keeps what it holds. */
  insertShells(level: Level, shells: readonly ShellRequest[]): Promise<number> {
    let inserted = 0;
    for (const request of shells) {
      const shell = shellDocument(level, request.series, request.start, request.compact);
      const { collection } = this.state.collections.ensure(shell.collection);
      if (collection.has(shell._id)) continue;
      collection.set(shell._id, copy(shell.doc) as BucketRecord);
      inserted += 1;
    }
    return Promise.resolve(inserted);
  }

  applyRetention(nowMs: number, policy: RetentionPolicy, dryRun: boolean): Promise<RetentionRun> {
    const finalBefore: Partial<Record<Level, number>> = {};
    for (const [level, mark] of this.state.watermarks)
      if (mark.finalBefore !== undefined) finalBefore[level] = mark.finalBefore;
    const verdicts = retentionPlan(this.state.collections.names(), nowMs, policy, finalBefore);
    const dropped: string[] = [];
    if (!dryRun)
      for (const verdict of verdicts) {
        if (!verdict.drop) continue;
        this.state.collections.drop(verdict.range.name);
        // Dropped buckets were final: what readers kept of them goes with them.
        this.state.bumpGeneration(verdict.range.level, nowMs);
        dropped.push(verdict.range.name);
      }
    return Promise.resolve({ verdicts, dropped, dryRun });
  }

  readLevelPolicy(): Promise<LevelPolicy> {
    return Promise.resolve(this.state.policy);
  }

  /** Checked whole before it is kept (LevelPolicy.with throws), so a refused change keeps nothing. */
  changeLevelPolicy(
    level: Level,
    metrics: readonly string[],
    mode: LevelMode,
    _nowMs: number,
  ): Promise<LevelPolicy> {
    return settle(() => {
      this.state.policy = new LevelPolicy(this.state.policy.with(level, metrics, mode).spec());
      return this.state.policy;
    });
  }

  changeAutoSkip(change: AutoSkipChange, _nowMs: number): Promise<LevelPolicy> {
    return settle(() => {
      this.state.policy = new LevelPolicy(this.state.policy.withAutoChange(change).spec());
      return this.state.policy;
    });
  }

  changePins(change: PinChange, _nowMs: number): Promise<LevelPolicy> {
    return settle(() => {
      this.state.policy = new LevelPolicy(this.state.policy.withPinChange(change).spec());
      return this.state.policy;
    });
  }

  changeMetricPolicy(change: MetricPolicyChange, _nowMs: number): Promise<LevelPolicy> {
    return settle(() => {
      this.state.policy = new LevelPolicy(this.state.policy.withMetricChange(change).spec());
      return this.state.policy;
    });
  }
}
