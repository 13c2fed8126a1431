import type {
  Level,
  LevelMode,
  LevelPolicy,
  MetricPolicyChange,
  PinChange,
  AutoSkipChange,
  RetentionPolicy,
  RetentionVerdict,
} from '@tickertape/buckets';

/** A series as the shells of its next slot prepare it. */
export interface ShellSeries {
  seriesKey: string;
  metric: string;
  tags: Readonly<Record<string, string>>;
  /** Numeric fields seen recently; a shell prepares exactly these. */
  fields: readonly string[];
}

/** A preallocated bucket: `series`' slot of `level` at `start`, compact or not (the level policy). */
export interface ShellRequest {
  series: ShellSeries;
  start: number;
  compact: boolean;
}

export interface RetentionRun {
  verdicts: RetentionVerdict[];
  dropped: string[];
  dryRun: boolean;
}

/** What the scheduler and `tickertape levels` keep up: shells, retention, the level policy. */
export interface Upkeep {
  /** The series with ticks at `level` over `[sinceMs, untilMs]`, with the fields they sent. */
  recentSeries(level: Level, sinceMs: number, untilMs: number): Promise<ShellSeries[]>;
  /** Inserts the shells not there yet; returns how many it inserted. */
  insertShells(level: Level, shells: readonly ShellRequest[]): Promise<number>;
  /** Drops the partitions retention says to drop (only reports them with `dryRun`). */
  applyRetention(nowMs: number, policy: RetentionPolicy, dryRun: boolean): Promise<RetentionRun>;
  readLevelPolicy(): Promise<LevelPolicy>;
  changeLevelPolicy(
    level: Level,
    metrics: readonly string[],
    mode: LevelMode,
    nowMs: number,
  ): Promise<LevelPolicy>;
  /** Sketches on or off for metrics, or a field's weight set or cleared (every level). */
  changeMetricPolicy(change: MetricPolicyChange, nowMs: number): Promise<LevelPolicy>;
  /** The automatic rule's spans at the minute level: one opened, closed or forgotten. */
  changeAutoSkip(change: AutoSkipChange, nowMs: number): Promise<LevelPolicy>;
  /**
   * The operator's word on the automatic rule at the minute level (`levels keep|auto minute`):
   * metrics pinned (an open span closed at the change's boundary) or handed back, in one write.
   */
  changePins(change: PinChange, nowMs: number): Promise<LevelPolicy>;
}
