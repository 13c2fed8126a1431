import {
  AUTO_SKIP_LEVEL,
  LEVELS,
  LevelPolicyError,
  POLICY_REFRESH_MS,
  SKETCH_ALPHA,
  autoSkipBoundary,
  floorTo,
  suggestedModes,
  type Level,
  type LevelMode,
  type LevelPolicy,
  type MetricPolicyChange,
} from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import type { MetricDensity, RollupStore } from '@tickertape/store';
import { openStores } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { formatTable } from '../../table.js';

export interface LevelsIo {
  ready: () => { env: CliEnv; logger: Logger };
  now: () => number;
}

export const LEVELS_HELP = `
A level too fine for a metric's density costs more than it tells: at one tick a minute a minute
bucket holds one tick, while the hour bucket's per-minute map holds that minute exactly.
  skip     the level stores nothing of the metric: its workers acknowledge the ticks without
           writing, the checker expects nothing there, and readers take the finest level that
           keeps it (a minute-wide chart of it reads the hour buckets)
  compact  hour buckets keep a sum per minute and a count per minute instead of full per-minute
           totals: one number per field for a minute with one tick; a minute's min, max, first
           and last are then its mean (exact at one tick a minute)
  keep     the level's full layout again (the default); at the minute level also pinned: an
           automatic skip of the metric (below) ends at a minute boundary every worker knows in
           advance (--max-future-ms, the workers' MAX_FUTURE_MS), and the scheduler never
           skips it by itself again
  auto     minute level only: the metric back to the scheduler's automatic rule (no longer
           pinned, nor skipped by you); it decides by the metric's density from its next run
  sketch     every level keeps a quantile sketch of the metrics' numeric fields (one per
             minute: about a few bins per minute and field) for percentiles, each within
             α = 1 % of the value at its rank (--alpha 0.005 … 0.05: finer costs more bins);
             no-sketch stops
  weight     every level keeps Σ(field × weight) and Σ weight of a field, for weighted averages
             (VWAP: tickertape levels weight stock.tick price=volume); no-weight stops
For metrics at one tick a minute: skip minute, compact hour. Every 10 s: skip minute.
By default the scheduler skips the minute level of a metric at one tick a minute or less by
itself, from a minute boundary every worker knows in advance, and writes it again above two a
minute (shown as \`auto\` lines). \`levels keep minute <metric>\` opts a metric out (a \`pinned\`
line), \`levels auto minute <metric>\` hands it back; AUTO_SKIP_MINUTE=false on the scheduler
turns the rule off for every metric and writes them all again.
\`tickertape levels suggest\` measures each metric in the last day's hour buckets and says
which (--apply sets them). Set a
metric's policy before its producers start; a change reaches running workers within 10 s and
applies to what they write from then on — rebuild a range (--source topic) to apply it to what is
stored. docs/data-layout.md, "The level policy".
`;

export function formatPolicy(policy: LevelPolicy): string {
  const lines = LEVELS.map((level) => {
    const parts = (['skip', 'compact'] as const).flatMap((mode) => {
      const metrics = policy.metricsAt(level, mode);
      return metrics.length === 0
        ? []
        : [`${mode === 'skip' ? 'skips' : 'compact'} ${metrics.join(', ')}`];
    });
    // Skipped now by the automatic rule (sparse), the operator's lists aside.
    const manual = policy.metricsAt(level, 'skip');
    const auto = policy
      .autoSkips()
      .filter(
        ({ metric, untilMs }) =>
          untilMs === undefined && policy.autoSkipping(level, metric) && !manual.includes(metric),
      )
      .map(({ metric }) => metric);
    if (auto.length > 0) parts.push(`skips ${auto.join(', ')} (sparse, automatic)`);
    return `${level.padEnd(6)}  ${parts.length === 0 ? 'keeps every metric' : parts.join('; ')}`;
  });
  // The automatic rule's spans (sparse metrics), each with the minutes it covers.
  const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  for (const { metric, fromMs, untilMs } of policy.autoSkips())
    lines.push(
      `auto    ${AUTO_SKIP_LEVEL} skips ${metric} ${
        untilMs === undefined
          ? `from ${minuteOf(fromMs)} (sparse)`
          : `from ${minuteOf(fromMs)} until ${minuteOf(untilMs)} (written again since)`
      }`,
    );
  // The operator's opt-outs of the automatic rule (levels keep minute; levels auto hands back).
  const pinned = policy.pinnedMetrics();
  if (pinned.length > 0)
    lines.push(
      `pinned  ${AUTO_SKIP_LEVEL} keeps ${pinned.join(', ')} (never skipped automatically)`,
    );
  // Shown only when set, at every level.
  const sketched = policy.sketchedMetrics();
  const alphaOf = (metric: string) => {
    const alpha = policy.sketchAlpha(metric);
    return alpha === SKETCH_ALPHA ? metric : `${metric} (α ${alpha})`;
  };
  if (sketched.length > 0) lines.push(`sketch  ${sketched.map(alphaOf).join(', ')}`);
  const byMetric = new Map<string, string[]>();
  for (const { metric, field, by } of policy.weights())
    byMetric.set(metric, [...(byMetric.get(metric) ?? []), `${field} by ${by}`]);
  for (const [metric, fields] of byMetric) lines.push(`weight  ${metric}: ${fields.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

const HOUR = 3_600_000;

/** One metric's measured density beside the modes suggested for it and the ones set now. */
export interface Suggestion extends MetricDensity {
  suggested: Record<Level, LevelMode>;
  current: Record<Level, LevelMode>;
}

export function suggest(densities: readonly MetricDensity[], policy: LevelPolicy): Suggestion[] {
  return densities.map((density) => ({
    ...density,
    suggested: suggestedModes(density.perMinute),
    current: Object.fromEntries(
      LEVELS.map((level) => [level, policy.mode(level, density.metric)]),
    ) as Record<Level, LevelMode>,
  }));
}

/** The `tickertape levels …` commands that turn the current modes into the suggested ones. */
export function changesFor(suggestions: readonly Suggestion[]): [Level, LevelMode, string[]][] {
  const changes = new Map<string, [Level, LevelMode, string[]]>();
  for (const s of suggestions)
    for (const level of LEVELS) {
      const mode = s.suggested[level];
      if (mode === s.current[level]) continue;
      const key = `${level}/${mode}`;
      const change = changes.get(key) ?? [level, mode, []];
      change[2].push(s.metric);
      changes.set(key, change);
    }
  return [...changes.values()];
}

const VERB_OF: Record<LevelMode, string> = { skip: 'skip', compact: 'compact', full: 'keep' };

export function formatSuggestions(suggestions: readonly Suggestion[], hours: number): string {
  if (suggestions.length === 0)
    return `no hour bucket with ticks in the last ${hours} whole hours: nothing to measure\n`;
  const modes = (m: Record<Level, LevelMode>) => LEVELS.map((level) => m[level]).join(' / ');
  const table = formatTable(
    ['metric', 'series', 'ticks/min each', 'suggested (minute / hour / day)', 'now'],
    suggestions.map((s) => [
      s.metric,
      s.series,
      Number(s.perMinute.toPrecision(3)),
      modes(s.suggested),
      modes(s.current),
    ]),
  );
  const changes = changesFor(suggestions).map(
    ([level, mode, metrics]) => `tickertape levels ${VERB_OF[mode]} ${level} ${metrics.join(' ')}`,
  );
  return `${table}${
    changes.length === 0
      ? 'the policy is as suggested\n'
      : `to apply (or run again with --apply):\n${changes.map((c) => `  ${c}\n`).join('')}`
  }`;
}

/** Opens the store of the rollups for one piece of work, and closes it. */
async function withStore<T>(
  io: LevelsIo,
  database: string,
  work: (store: RollupStore) => Promise<T>,
): Promise<T> {
  const { env, logger } = io.ready();
  const stores = await openStores(env, logger, 'tickertape-levels', database);
  try {
    return await work(stores.rollups);
  } finally {
    await stores.close();
  }
}

/** `tickertape levels`: the policy as it is. */
export function showPolicy(io: LevelsIo, database: string): Promise<LevelPolicy> {
  return withStore(io, database, (store) => store.readLevelPolicy());
}

export interface Suggested {
  suggestions: Suggestion[];
  /** The policy after `--apply` changed it; absent when nothing was applied. */
  applied?: LevelPolicy;
}

/** `tickertape levels suggest`: the measured densities and suggestions, applied on `apply`. */
export function suggestPolicy(
  io: LevelsIo,
  options: { database: string; hours: number; apply: boolean; maxFutureMs: number },
): Promise<Suggested> {
  const toMs = floorTo(io.now(), HOUR);
  return withStore(io, options.database, async (store) => {
    // Measured in the level above the finest: its buckets count each metric's ticks per minute.
    const densities = await store.metricDensities(LEVELS[1], toMs - options.hours * HOUR, toMs);
    const suggestions = suggest(densities, await store.readLevelPolicy());
    let applied: LevelPolicy | undefined;
    // As the printed commands would: a keep at the minute level pins.
    if (options.apply)
      for (const [level, mode, metrics] of changesFor(suggestions))
        applied = await applyMode(store, io.now(), options.maxFutureMs, { level, metrics, mode });
    return { suggestions, ...(applied === undefined ? {} : { applied }) };
  });
}

/** `levels suggest` for people: the table, the commands to apply it, the policy if applied. */
export function formatSuggested(suggested: Suggested, hours: number): string {
  const out = formatSuggestions(suggested.suggestions, hours);
  return suggested.applied === undefined
    ? out
    : `${out}applied:\n${formatPolicy(suggested.applied)}`;
}

/**
 * `tickertape levels sketch|no-sketch|weight|no-weight`: the policy after the changes. Every
 * change is checked against the current policy before the first is stored, so a refused one
 * (a field weighted by itself) stores nothing.
 */
export function changeMetricPolicy(
  io: LevelsIo,
  database: string,
  changes: readonly MetricPolicyChange[],
): Promise<LevelPolicy> {
  return withStore(io, database, async (store) => {
    let policy = await store.readLevelPolicy();
    let checked = policy;
    for (const change of changes) checked = checked.withMetricChange(change);
    for (const change of changes) policy = await store.changeMetricPolicy(change, io.now());
    return policy;
  });
}

export interface ModeChange {
  level: Level;
  metrics: string[];
  mode: LevelMode;
}

/**
 * One mode for some metrics at a level. `keep` at the minute level is the operator's explicit
 * word against the automatic rule: the metrics are pinned there and an open automatic span of
 * theirs is closed at the rule's own kind of boundary (past `maxFutureMs` and the writers' policy
 * refresh), so every tick on either side is judged by its slot alone.
 */
function applyMode(
  store: RollupStore,
  nowMs: number,
  maxFutureMs: number,
  { level, metrics, mode }: ModeChange,
): Promise<LevelPolicy> {
  if (level !== AUTO_SKIP_LEVEL || mode !== 'full')
    return store.changeLevelPolicy(level, metrics, mode, nowMs);
  const untilMs = autoSkipBoundary(nowMs, maxFutureMs, POLICY_REFRESH_MS);
  return store.changePins({ kind: 'pin', metrics, untilMs }, nowMs);
}

/** `tickertape levels skip|compact|keep`: the policy after the change. */
export function changePolicy(
  io: LevelsIo,
  options: { database: string; maxFutureMs: number },
  change: ModeChange,
): Promise<LevelPolicy> {
  return withStore(io, options.database, (store) =>
    applyMode(store, io.now(), options.maxFutureMs, change),
  );
}

/**
 * `tickertape levels auto minute <metric...>`: the metrics handed back to the automatic rule (no
 * longer pinned, nor skipped by the operator). Only the minute level has such a rule.
 */
export function handBack(
  io: LevelsIo,
  database: string,
  level: Level,
  metrics: string[],
): Promise<LevelPolicy> {
  if (level !== AUTO_SKIP_LEVEL)
    return Promise.reject(
      new LevelPolicyError(
        `only the ${AUTO_SKIP_LEVEL} level is skipped automatically; the ${level} level follows your skip, compact and keep alone`,
      ),
    );
  return withStore(io, database, (store) => store.changePins({ kind: 'unpin', metrics }, io.now()));
}
