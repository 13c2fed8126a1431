import { LEVELS, LEVEL_SPECS, type Level } from './levels.js';
import { SKETCH_ALPHA, checkSketchAlpha } from './sketch.js';

/**
 * How a level stores a metric:
 * - `full`: the level's own layout (the default);
 * - `compact`: hour buckets keep a sum per minute and a count per minute and field set
 *   (`msum`, `c`) instead of the minute's full totals — one number per field for a minute with
 *   one tick, where full totals cost ~140 bytes; per-minute min, max, first and last are then the
 *   minute's mean (exact when the minute holds one tick, which is what compact is for);
 * - `skip`: the level stores nothing of the metric.
 */
export type LevelMode = 'full' | 'compact' | 'skip';

/**
 * Levels whose compact form is the policy's choice: a level with no sums map has none, and one
 * whose sums map is its sub-slot map (minute buckets' per-second sums) is always compact.
 */
export const COMPACT_LEVELS: readonly Level[] = LEVELS.filter((level) => {
  const { subKey, sumsKey } = LEVEL_SPECS[level];
  return sumsKey !== undefined && sumsKey !== subKey;
});

/** One weighted field of a metric: `field` is averaged by `by` (stock.tick's price by volume). */
export interface WeightSpec {
  metric: string;
  field: string;
  by: string;
}

/**
 * The level the automatic rule skips for sparse metrics (`auto-skip.ts`): the finest, whose
 * buckets the hour buckets' per-minute aggregates hold exactly.
 */
export const AUTO_SKIP_LEVEL: Level = LEVELS[0];

/**
 * One span of minute slots the automatic rule skipped a metric for: slots starting in
 * [fromMs, untilMs) (open while `untilMs` is unset). Bounds are whole minutes chosen far enough
 * ahead that every writer knows the span before it sees a tick of it, so whether a tick is written
 * depends only on its slot — never on when a worker read the policy.
 */
export interface AutoSkipSpec {
  metric: string;
  fromMs: number;
  untilMs?: number;
}

/** A change the automatic rule makes: a span opened, the open one closed, old closed ones forgotten. */
export type AutoSkipChange =
  | { kind: 'skip'; metric: string; fromMs: number }
  | { kind: 'keep'; metric: string; untilMs: number }
  | { kind: 'forget'; beforeMs: number };

/**
 * The operator's word on the automatic rule at AUTO_SKIP_LEVEL, for some metrics:
 * - `pin` (`tickertape levels keep minute`): the level keeps them in full — the operator's skip of
 *   them dropped, an open automatic span closed at `untilMs` (a boundary as safe as the rule's own,
 *   `autoSkipBoundary`) — and the rule never opens a span for them again;
 * - `unpin` (`tickertape levels auto minute`): handed back to the rule, which decides by their
 *   density from its next run (the operator's skip of them dropped too).
 */
export type PinChange =
  | { kind: 'pin'; metrics: readonly string[]; untilMs: number }
  | { kind: 'unpin'; metrics: readonly string[] };

/** A sketched metric kept at an α other than the default (SKETCH_ALPHA). */
export interface SketchAlphaSpec {
  metric: string;
  alpha: number;
}

/**
 * What a level stores of a metric, by metric (metrics not named are `full`); and, for every level,
 * the metrics whose fields keep a quantile sketch and the fields weighted by another field.
 */
export type LevelPolicySpec = Readonly<
  Partial<Record<Level, { skip?: readonly string[]; compact?: readonly string[] }>> & {
    sketch?: readonly string[];
    /** Sketched metrics whose α is not the default; a metric not sketched here is refused. */
    sketchAlpha?: readonly SketchAlphaSpec[];
    weights?: readonly WeightSpec[];
    /** Spans the automatic rule skips AUTO_SKIP_LEVEL for, per metric (docs/data-layout.md). */
    autoSkip?: readonly AutoSkipSpec[];
    /** Metrics the operator keeps at AUTO_SKIP_LEVEL, which the automatic rule leaves alone (PinChange). */
    pinned?: readonly string[];
  }
>;

/**
 * A change of the per-metric parts of the policy (every level): sketches on (at `alpha`, the
 * default unless given) or off, a weight set or cleared.
 */
export type MetricPolicyChange =
  | { kind: 'sketch'; metrics: readonly string[]; on: boolean; alpha?: number }
  | { kind: 'weight'; metric: string; field: string; by: string | undefined };

export class LevelPolicyError extends RangeError {}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Which levels keep which metrics, and in which form. A level too fine for a metric's density
 * costs more than it tells: at one tick a minute, a minute bucket holds one tick in ~870 bytes,
 * while the hour bucket's per-minute map holds the same minute exactly. Skipping a level for a
 * metric means its writers write nothing of it, its checker expects nothing, and readers take
 * the metric's finest kept level (docs/data-layout.md, "The level policy").
 *
 * Stored in the database (one document per level, `@tickertape/store`), so the workers, the
 * checker, rebuilds and readers all follow one policy.
 */
export class LevelPolicy {
  private readonly modes: ReadonlyMap<Level, ReadonlyMap<string, Exclude<LevelMode, 'full'>>>;
  /** Sketched metrics → their α. */
  private readonly sketched: ReadonlyMap<string, number>;
  /** Per metric: weighted field → its weight field. */
  private readonly weighted: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Per metric: the automatic rule's spans at AUTO_SKIP_LEVEL, in time order. */
  private readonly auto: ReadonlyMap<string, readonly AutoSkipSpec[]>;
  /** Metrics the operator keeps at AUTO_SKIP_LEVEL: the automatic rule opens no span for them. */
  private readonly pinnedSet: ReadonlySet<string>;
  /** The policy as one canonical string: equal policies, equal keys (what cached answers carry). */
  readonly key: string;

  constructor(spec: LevelPolicySpec = {}) {
    const modes = new Map<Level, Map<string, Exclude<LevelMode, 'full'>>>();
    for (const level of LEVELS) {
      const { skip = [], compact = [] } = spec[level] ?? {};
      if (compact.length > 0 && !COMPACT_LEVELS.includes(level))
        throw new LevelPolicyError(
          `the ${level} level has no compact form (only ${COMPACT_LEVELS.join(', ')})`,
        );
      const byMetric = new Map<string, Exclude<LevelMode, 'full'>>();
      for (const metric of compact) byMetric.set(metric, 'compact');
      for (const metric of skip) byMetric.set(metric, 'skip');
      if (byMetric.size > 0) modes.set(level, byMetric);
    }
    this.modes = modes;
    const sketched = new Map<string, number>();
    for (const metric of spec.sketch ?? []) sketched.set(metric, SKETCH_ALPHA);
    for (const { metric, alpha } of spec.sketchAlpha ?? []) {
      if (!sketched.has(metric))
        throw new LevelPolicyError(`${metric}: an α is set for a metric that keeps no sketch`);
      try {
        sketched.set(metric, checkSketchAlpha(alpha));
      } catch (error) {
        throw new LevelPolicyError(`${metric}: ${(error as Error).message}`);
      }
    }
    this.sketched = sketched;
    const weighted = new Map<string, Map<string, string>>();
    for (const { metric, field, by } of spec.weights ?? []) {
      if (metric === '' || field === '' || by === '')
        throw new LevelPolicyError('a weight names a metric, a field and its weight field');
      if (field === by)
        throw new LevelPolicyError(`${metric}: field ${field} cannot be weighted by itself`);
      const fields = weighted.get(metric) ?? new Map<string, string>();
      fields.set(field, by);
      weighted.set(metric, fields);
    }
    this.weighted = weighted;
    const auto = new Map<string, AutoSkipSpec[]>();
    for (const { metric, fromMs, untilMs } of spec.autoSkip ?? []) {
      if (metric === '' || !Number.isFinite(fromMs) || (untilMs !== undefined && untilMs <= fromMs))
        throw new LevelPolicyError('an automatic skip names a metric and a non-empty span');
      const spans = auto.get(metric) ?? [];
      spans.push(untilMs === undefined ? { metric, fromMs } : { metric, fromMs, untilMs });
      auto.set(metric, spans);
    }
    for (const spans of auto.values()) spans.sort((a, b) => a.fromMs - b.fromMs);
    this.auto = auto;
    // Not refused when the operator also skips a pinned metric (two writes racing): the skip
    // then decides what is stored, and the pin only keeps the rule away.
    if ((spec.pinned ?? []).some((metric) => metric === ''))
      throw new LevelPolicyError('a pinned metric has a name');
    this.pinnedSet = new Set(spec.pinned ?? []);
    const levelKey = [...modes].map(([level, byMetric]) => [
      level,
      [...byMetric].sort(([a], [b]) => byName(a, b)),
    ]);
    // The per-metric parts join the key only when set, so a policy without them keeps its key.
    this.key =
      this.sketched.size === 0 && weighted.size === 0
        ? JSON.stringify(levelKey)
        : JSON.stringify({
            levels: levelKey,
            sketch: this.sketchedMetrics(),
            // Only when some α is not the default, so policies from before α keep their key.
            ...(this.sketchAlphas().length > 0 ? { sketchAlpha: this.sketchAlphas() } : {}),
            weights: this.weights(),
          });
    // Joins the key only when set, so a policy without automatic skips keeps its key. Pins do
    // not join it: they change nothing stored or read, so cached answers stay valid.
    if (auto.size > 0) this.key = JSON.stringify({ policy: this.key, autoSkip: this.autoSkips() });
    const everywhere = [...(modes.get(LEVELS[0]) ?? new Map<string, LevelMode>())].find(
      ([metric]) => LEVELS.every((level) => this.skips(level, metric)),
    );
    if (everywhere !== undefined)
      throw new LevelPolicyError(
        `metric ${everywhere[0]} skips every level: nothing of it would be stored`,
      );
  }

  /** How `level` stores `metric` now: the operator's mode, else `skip` while the automatic rule skips it. */
  mode(level: Level, metric: string): LevelMode {
    return (
      this.modes.get(level)?.get(metric) ?? (this.autoSkipping(level, metric) ? 'skip' : 'full')
    );
  }

  /** Whether the automatic rule's latest span for `metric` at `level` is open (skipping now or from its start). */
  autoSkipping(level: Level, metric: string): boolean {
    if (level !== AUTO_SKIP_LEVEL) return false;
    const spans = this.auto.get(metric);
    return spans !== undefined && spans[spans.length - 1]!.untilMs === undefined;
  }

  /**
   * Whether `level` leaves out a tick of `metric` at `tsMs`: what writers and the checker ask per
   * tick. The operator's skip holds at every time; an automatic span only over its own slots.
   */
  skipsAt(level: Level, metric: string, tsMs: number): boolean {
    if (this.modes.get(level)?.get(metric) === 'skip') return true;
    if (level !== AUTO_SKIP_LEVEL) return false;
    return (this.auto.get(metric) ?? []).some(
      ({ fromMs, untilMs }) => fromMs <= tsMs && (untilMs === undefined || tsMs < untilMs),
    );
  }

  /**
   * Whether `level` lacks some of `metric`'s slots in [fromMs, toMs) (any time when no range is
   * given): skipped by the operator, or over an automatic span that overlaps the range (an open
   * one from its start on). Readers then draw the metric from the next level for the whole read
   * (the hour's per-minute aggregates hold each minute exactly), so a span is never read as a gap.
   */
  skipsSome(level: Level, metric: string, range?: { fromMs: number; toMs: number }): boolean {
    if (this.modes.get(level)?.get(metric) === 'skip') return true;
    if (level !== AUTO_SKIP_LEVEL) return false;
    const spans = this.auto.get(metric) ?? [];
    if (range === undefined) return spans.length > 0;
    return spans.some(
      ({ fromMs, untilMs }) =>
        fromMs < range.toMs && (untilMs === undefined || range.fromMs < untilMs),
    );
  }

  /** Every automatic span, by metric, then time. */
  autoSkips(): AutoSkipSpec[] {
    return [...this.auto]
      .sort(([a], [b]) => byName(a, b))
      .flatMap(([, spans]) => spans.map((span) => ({ ...span })));
  }

  /**
   * The same policy with `metric` skipped automatically from `fromMs` (a whole minute ahead of
   * every writer); unchanged while a span of it is open, or when the operator pinned it (a pin
   * stored between the job's read and its write wins).
   */
  withAutoSkip(metric: string, fromMs: number): LevelPolicy {
    if (this.autoSkipping(AUTO_SKIP_LEVEL, metric) || this.pins(metric)) return this;
    return new LevelPolicy({ ...this.spec(), autoSkip: [...this.autoSkips(), { metric, fromMs }] });
  }

  /**
   * The same policy with `metric`'s open automatic span closed at `untilMs`: written again from
   * that minute on. A span that would end before it began is dropped whole (it never took effect).
   */
  withAutoKeep(metric: string, untilMs: number): LevelPolicy {
    if (!this.autoSkipping(AUTO_SKIP_LEVEL, metric)) return this;
    const autoSkip = this.autoSkips().flatMap((span) =>
      span.metric !== metric || span.untilMs !== undefined
        ? [span]
        : untilMs <= span.fromMs
          ? []
          : [{ ...span, untilMs }],
    );
    return new LevelPolicy({ ...this.spec(), autoSkip });
  }

  /** The same policy with one automatic change. */
  withAutoChange(change: AutoSkipChange): LevelPolicy {
    if (change.kind === 'skip') return this.withAutoSkip(change.metric, change.fromMs);
    if (change.kind === 'keep') return this.withAutoKeep(change.metric, change.untilMs);
    return this.withoutAutoSkipsBefore(change.beforeMs);
  }

  /** Whether the operator keeps `metric` at AUTO_SKIP_LEVEL, out of the automatic rule's reach. */
  pins(metric: string): boolean {
    return this.pinnedSet.has(metric);
  }

  /** The metrics the operator pinned at AUTO_SKIP_LEVEL, sorted. */
  pinnedMetrics(): string[] {
    return [...this.pinnedSet].sort(byName);
  }

  /**
   * The same policy with the operator's word on the automatic rule (PinChange). A pin closes an
   * open span at `untilMs` as the rule's own `keep` does, so the ticks on either side are judged
   * by their slot alone; both drop the operator's skip of the metrics at AUTO_SKIP_LEVEL, since a
   * metric there is in one of three states: skipped by the operator, pinned, or the rule's.
   */
  withPinChange(change: PinChange): LevelPolicy {
    let next: LevelPolicy = this.with(AUTO_SKIP_LEVEL, change.metrics, 'full');
    const pinned = new Set(this.pinnedSet);
    for (const metric of change.metrics) {
      if (change.kind === 'pin') {
        next = next.withAutoKeep(metric, change.untilMs);
        pinned.add(metric);
      } else pinned.delete(metric);
    }
    return new LevelPolicy({ ...next.spec(), pinned: [...pinned] });
  }

  /** The same policy without the closed automatic spans that ended at or before `beforeMs` (past the level's retention). */
  withoutAutoSkipsBefore(beforeMs: number): LevelPolicy {
    const autoSkip = this.autoSkips().filter(
      ({ untilMs }) => untilMs === undefined || untilMs > beforeMs,
    );
    if (autoSkip.length === this.autoSkips().length) return this;
    return new LevelPolicy({ ...this.spec(), autoSkip });
  }

  skips(level: Level, metric: string): boolean {
    return this.mode(level, metric) === 'skip';
  }

  compacts(level: Level, metric: string): boolean {
    return this.mode(level, metric) === 'compact';
  }

  /** Metrics stored in `mode` at `level`, sorted (`full`: not listed, so never asked). */
  metricsAt(level: Level, mode: Exclude<LevelMode, 'full'>): string[] {
    return [...(this.modes.get(level) ?? new Map<string, LevelMode>())]
      .filter(([, m]) => m === mode)
      .map(([metric]) => metric)
      .sort();
  }

  /** Whether `metric`'s numeric fields keep a quantile sketch (at every level; docs/data-layout.md). */
  sketches(metric: string): boolean {
    return this.sketched.has(metric);
  }

  /** The relative accuracy `metric`'s sketches are kept at (the default for one not sketched). */
  sketchAlpha(metric: string): number {
    return this.sketched.get(metric) ?? SKETCH_ALPHA;
  }

  /** Sketched metrics at an α other than the default, sorted by metric. */
  sketchAlphas(): SketchAlphaSpec[] {
    return [...this.sketched]
      .filter(([, alpha]) => alpha !== SKETCH_ALPHA)
      .map(([metric, alpha]) => ({ metric, alpha }))
      .sort((a, b) => byName(a.metric, b.metric));
  }

  /** The field that weighs `field` of `metric` (Σx·w and Σw kept), if any. */
  weightOf(metric: string, field: string): string | undefined {
    return this.weighted.get(metric)?.get(field);
  }

  /** `metric`'s weighted fields (field → weight field); undefined when none: what the fold asks once per bucket. */
  weightsOf(metric: string): ReadonlyMap<string, string> | undefined {
    return this.weighted.get(metric);
  }

  /** The metrics with sketches, sorted. */
  sketchedMetrics(): string[] {
    return [...this.sketched.keys()].sort(byName);
  }

  /** Every weighted field, sorted by metric, then field. */
  weights(): WeightSpec[] {
    return [...this.weighted]
      .flatMap(([metric, fields]) => [...fields].map(([field, by]) => ({ metric, field, by })))
      .sort((a, b) => byName(a.metric, b.metric) || byName(a.field, b.field));
  }

  /** The same policy with a per-metric change; throws if that is not allowed. */
  withMetricChange(change: MetricPolicyChange): LevelPolicy {
    const spec = this.spec();
    if (change.kind === 'sketch') {
      const sketch = new Map(this.sketched);
      for (const metric of change.metrics) {
        if (metric === '') throw new LevelPolicyError('a sketch names a metric');
        // A new α applies to what is written from then on: keys say their α, so old bins still read.
        if (change.on) sketch.set(metric, change.alpha ?? SKETCH_ALPHA);
        else sketch.delete(metric);
      }
      return new LevelPolicy({
        ...spec,
        sketch: [...sketch.keys()],
        sketchAlpha: [...sketch]
          .filter(([, alpha]) => alpha !== SKETCH_ALPHA)
          .map(([metric, alpha]) => ({ metric, alpha })),
      });
    }
    const { metric, field, by } = change;
    const weights = this.weights().filter((w) => !(w.metric === metric && w.field === field));
    if (by !== undefined) weights.push({ metric, field, by });
    return new LevelPolicy({ ...spec, weights });
  }

  /** The levels among `levels` that keep `metric` (over `range` when given), finest first. */
  levelsFor(
    levels: readonly Level[],
    metric: string,
    range?: { fromMs: number; toMs: number },
  ): Level[] {
    return levels.filter((level) => !this.skipsSome(level, metric, range));
  }

  /** The same policy with `metrics` stored in `mode` at `level`; throws if that is not allowed. */
  with(level: Level, metrics: readonly string[], mode: LevelMode): LevelPolicy {
    return new LevelPolicy(this.specWith(level, metrics, mode));
  }

  /**
   * The policy as stored: per level, the metrics it skips and those it keeps compact; the
   * sketched metrics and weighted fields.
   */
  spec(): LevelPolicySpec {
    const levels: Partial<Record<Level, { skip: string[]; compact: string[] }>> = {};
    for (const level of LEVELS)
      levels[level] = {
        skip: this.metricsAt(level, 'skip'),
        compact: this.metricsAt(level, 'compact'),
      };
    return {
      ...levels,
      sketch: this.sketchedMetrics(),
      sketchAlpha: this.sketchAlphas(),
      weights: this.weights(),
      // Only when set, so a policy without automatic spans or pins keeps the shape it had.
      ...(this.auto.size > 0 ? { autoSkip: this.autoSkips() } : {}),
      ...(this.pinnedSet.size > 0 ? { pinned: this.pinnedMetrics() } : {}),
    };
  }

  private specWith(level: Level, metrics: readonly string[], mode: LevelMode): LevelPolicySpec {
    const next = new Map(this.modes.get(level) ?? []);
    for (const metric of metrics) {
      if (mode === 'full') next.delete(metric);
      else next.set(metric, mode);
    }
    const pick = (m: LevelMode) =>
      [...next].filter(([, each]) => each === m).map(([metric]) => metric);
    const spec = { ...this.spec(), [level]: { skip: pick('skip'), compact: pick('compact') } };
    // The operator's skip replaces a pin: one state per metric at AUTO_SKIP_LEVEL (withPinChange).
    if (level !== AUTO_SKIP_LEVEL || mode !== 'skip' || this.pinnedSet.size === 0) return spec;
    return { ...spec, pinned: this.pinnedMetrics().filter((metric) => !metrics.includes(metric)) };
  }

  /** No level skips or compacts a metric (sketches and weights aside): every level keeps every metric in full. */
  get isEmpty(): boolean {
    return this.modes.size === 0 && this.auto.size === 0;
  }
}

export const KEEP_EVERYTHING = new LevelPolicy();

/**
 * Below this many ticks per series per minute a minute bucket costs more than a fifth of a
 * document per tick (~600 bytes of identity, totals and index per bucket): skip the level.
 */
export const SKIP_MINUTE_BELOW_PER_MINUTE = 12;
/** At or below this many ticks per minute the compact hour form loses nothing worth its bytes. */
export const COMPACT_HOUR_AT_PER_MINUTE = 1.5;

/**
 * The modes suggested for a metric whose series send `perMinute` ticks a minute each: the minute
 * level skipped below one tick per 5 s (its per-second detail is then mostly empty, and the hour
 * buckets hold every minute), the hour level compact at about one tick a minute (where a minute's
 * sum is its value), everything else full. docs/data-layout.md, "The level policy".
 */
export function suggestedModes(perMinute: number): Record<Level, LevelMode> {
  return {
    minute: perMinute < SKIP_MINUTE_BELOW_PER_MINUTE ? 'skip' : 'full',
    hour: perMinute <= COMPACT_HOUR_AT_PER_MINUTE ? 'compact' : 'full',
    day: 'full',
  };
}
