import {
  LEVELS,
  LevelPolicyError,
  floorTo,
  isLevel,
  suggestedModes,
  type Level,
  type LevelMode,
  type LevelPolicy,
} from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import type { MetricDensity, RollupStore } from '@tickertape/store';
import { InvalidArgumentError, type Command } from 'commander';
import { positiveInt } from '../../arguments.js';
import { openStores } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { formatTable } from '../../table.js';

export interface LevelsIo {
  ready: () => { env: CliEnv; logger: Logger };
  now: () => number;
  stdout: (text: string) => void;
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
  keep     the level's full layout again (the default)
For metrics at one tick a minute: skip minute, compact hour. Every 10 s: skip minute.
\`tickertape levels suggest\` measures each metric in the last day's hour buckets and says
which (--apply sets them). Set a
metric's policy before its producers start; a change reaches running workers within 10 s and
applies to what they write from then on — rebuild a range (--source topic) to apply it to what is
stored. docs/data-layout.md, "The level policy".
`;

function levelArgument(value: string): Level {
  if (!isLevel(value))
    throw new InvalidArgumentError(`unknown level ${value}; levels: ${LEVELS.join(', ')}`);
  return value;
}

export function formatPolicy(policy: LevelPolicy): string {
  const lines = LEVELS.map((level) => {
    const parts = (['skip', 'compact'] as const).flatMap((mode) => {
      const metrics = policy.metricsAt(level, mode);
      return metrics.length === 0
        ? []
        : [`${mode === 'skip' ? 'skips' : 'compact'} ${metrics.join(', ')}`];
    });
    return `${level.padEnd(6)}  ${parts.length === 0 ? 'keeps every metric' : parts.join('; ')}`;
  });
  return `${lines.join('\n')}\n`;
}

const VERBS: readonly { verb: string; mode: LevelMode; description: string }[] = [
  {
    verb: 'skip',
    mode: 'skip',
    description: 'stop writing these metrics at a level (too fine for them)',
  },
  {
    verb: 'compact',
    mode: 'compact',
    description: 'keep a sum and a count per sub-slot of these metrics at a level (hour)',
  },
  {
    verb: 'keep',
    mode: 'full',
    description: "write these metrics in the level's full layout again",
  },
];

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

export function addLevelsCommand(program: Command, io: LevelsIo): void {
  const withStore = async <T>(
    database: string,
    work: (store: RollupStore) => Promise<T>,
  ): Promise<T> => {
    const { env, logger } = io.ready();
    const stores = await openStores(env, logger, 'tickertape-levels', database);
    try {
      return await work(stores.rollups);
    } finally {
      await stores.close();
    }
  };
  const levels = program
    .command('levels')
    .description('which levels keep which metrics (the level policy)')
    .option('--database <name>', 'MongoDB database of the rollups', 'tickertape')
    .addHelpText('after', LEVELS_HELP)
    .action(async (options: { database: string }) => {
      io.stdout(
        formatPolicy(await withStore(options.database, (store) => store.readLevelPolicy())),
      );
    });
  levels
    .command('suggest')
    .description(
      "each metric's density in the last hours' hour buckets, and the modes suggested for it",
    )
    .option('--hours <n>', 'whole hours to measure, up to the current one', positiveInt, 24)
    .option('--apply', 'set the suggested modes', false)
    .action(async (options: { hours: number; apply: boolean }, command: Command) => {
      const { database } = command.optsWithGlobals<{ database: string }>();
      const toMs = floorTo(io.now(), HOUR);
      const text = await withStore(database, async (store) => {
        const densities = await store.metricDensities('hour', toMs - options.hours * HOUR, toMs);
        const suggestions = suggest(densities, await store.readLevelPolicy());
        let out = formatSuggestions(suggestions, options.hours);
        if (options.apply) {
          let policy: LevelPolicy | undefined;
          for (const [level, mode, metrics] of changesFor(suggestions))
            policy = await store.changeLevelPolicy(level, metrics, mode, io.now());
          if (policy !== undefined) out += `applied:\n${formatPolicy(policy)}`;
        }
        return out;
      });
      io.stdout(text);
    });
  for (const { verb, mode, description } of VERBS)
    levels
      .command(verb)
      .description(description)
      .argument('<level>', `one of ${LEVELS.join(', ')}`, levelArgument)
      .argument('<metric...>', 'metric names, e.g. mms.cpu')
      .action(async (level: Level, metrics: string[], _options: unknown, command: Command) => {
        // --database belongs to `levels` (commander gives a parent's option to the parent).
        const { database } = command.optsWithGlobals<{ database: string }>();
        try {
          const policy = await withStore(database, (store) =>
            store.changeLevelPolicy(level, metrics, mode, io.now()),
          );
          io.stdout(formatPolicy(policy));
        } catch (err) {
          if (!(err instanceof LevelPolicyError)) throw err;
          command.error(`error: ${err.message}`, { exitCode: 2 });
        }
      });
}
