import { LEVELS, type Level } from './levels.js';

/**
 * Which levels keep which metrics. A level too fine for a metric's density costs more than it
 * tells: at one tick a minute, a minute bucket holds one tick in ~870 bytes, while the hour
 * bucket's per-minute map holds the same minute exactly. Skipping a level for a metric means its
 * workers write nothing of that metric, its checker expects nothing, and readers take the
 * metric's finest kept level (docs/data-layout.md, "Levels a metric skips").
 *
 * Stored in the database (one document per level, `@tickertape/store`), so the workers, the
 * checker, rebuilds and readers all follow one policy.
 */
export class LevelPolicy {
  private readonly skipped: ReadonlyMap<Level, ReadonlySet<string>>;

  constructor(skip: Readonly<Partial<Record<Level, readonly string[]>>> = {}) {
    this.skipped = new Map(
      LEVELS.flatMap((level) => {
        const metrics = skip[level] ?? [];
        return metrics.length > 0 ? [[level, new Set(metrics)] as const] : [];
      }),
    );
    const everywhere = [...(this.skipped.get(LEVELS[0]) ?? [])].filter((metric) =>
      LEVELS.every((level) => this.skips(level, metric)),
    );
    if (everywhere.length > 0)
      throw new RangeError(
        `metric ${everywhere[0]} skips every level: nothing of it would be stored`,
      );
  }

  skips(level: Level, metric: string): boolean {
    return this.skipped.get(level)?.has(metric) ?? false;
  }

  /** Metrics `level` skips, sorted. */
  skippedAt(level: Level): string[] {
    return [...(this.skipped.get(level) ?? [])].sort();
  }

  /** The levels among `levels` that keep `metric`, finest first. */
  levelsFor(levels: readonly Level[], metric: string): Level[] {
    return levels.filter((level) => !this.skips(level, metric));
  }

  /** The same policy with `metrics` skipped (or kept again) at `level`; throws if that would skip every level. */
  with(level: Level, metrics: readonly string[], skip: boolean): LevelPolicy {
    const next: Partial<Record<Level, string[]>> = {};
    for (const each of LEVELS) next[each] = this.skippedAt(each);
    const current = new Set(next[level]);
    for (const metric of metrics) {
      if (skip) current.add(metric);
      else current.delete(metric);
    }
    next[level] = [...current];
    return new LevelPolicy(next);
  }

  get isEmpty(): boolean {
    return this.skipped.size === 0;
  }
}

export const KEEP_EVERYTHING = new LevelPolicy();
