import {
  LEVELS,
  LevelPolicyError,
  checkSketchAlpha,
  isLevel,
  type Level,
  type LevelMode,
  type LevelPolicy,
  type MetricPolicyChange,
  SKETCH_ALPHA,
} from '@tickertape/buckets';
import { TIME_WINDOW_DEFAULTS } from '@tickertape/topology';
import { Argument, InvalidArgumentError, Option } from 'commander';
import { positiveInt } from '../../arguments.js';
import { maxFutureOption } from '../../time-window-options.js';
import { EXIT } from '../../exit-codes.js';
import { defineCommand, type CommandRun } from '../command.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { policyJson, suggestionsJson } from './json.js';
import {
  changeMetricPolicy,
  changePolicy,
  formatPolicy,
  formatSuggested,
  handBack,
  LEVELS_HELP,
  showPolicy,
  suggestPolicy,
} from './run.js';

/** Every `levels` command prints the policy (or the suggestions): table or json. */
const levelsFormat = () => formatOptions(['table', 'json']);

/** The policy as `--format` asks. */
function printPolicy(ctx: CommandRun, format: OutputFormat, policy: LevelPolicy): void {
  ctx.io.stdout(format === 'json' ? jsonDocument(policyJson(policy)) : formatPolicy(policy));
}

function levelArgument(value: string): Level {
  if (!isLevel(value))
    throw new InvalidArgumentError(`unknown level ${value}; levels: ${LEVELS.join(', ')}`);
  return value;
}

const suggestDefinition = defineCommand({
  name: 'suggest',
  summary: "each metric's density in the last hours' hour buckets, and the modes suggested for it",
  options: [
    new Option('--hours <n>', 'whole hours to measure, up to the current one')
      .argParser(positiveInt)
      .default(24),
    new Option('--apply', 'set the suggested modes').default(false),
    maxFutureOption(),
    ...levelsFormat(),
  ],
  async run(
    ctx,
    options: {
      database: string;
      hours: number;
      apply: boolean;
      maxFutureMs: number;
      format: OutputFormat;
    },
  ) {
    const suggested = await suggestPolicy(ctx, options);
    ctx.io.stdout(
      options.format === 'json'
        ? jsonDocument(suggestionsJson(suggested.suggestions, options.hours, suggested.applied))
        : formatSuggested(suggested, options.hours),
    );
  },
});

/** `tickertape levels skip|compact|keep <level> <metric...>`: one mode for some metrics. */
function changeDefinition(verb: string, mode: LevelMode, summary: string) {
  return defineCommand({
    name: verb,
    summary,
    arguments: [
      new Argument('<level>', `one of ${LEVELS.join(', ')}`).argParser(levelArgument),
      new Argument('<metric...>', 'metric names, e.g. mms.cpu'),
    ],
    // A keep at the minute level ends an automatic skip at a boundary past the workers' bound.
    options: mode === 'full' ? [maxFutureOption(), ...levelsFormat()] : levelsFormat(),
    // `database` is `levels --database` (commander gives a parent's option to the parent).
    async run(
      ctx,
      options: { database: string; maxFutureMs?: number; format: OutputFormat },
      level: Level,
      metrics: string[],
    ) {
      const maxFutureMs = options.maxFutureMs ?? TIME_WINDOW_DEFAULTS.maxFutureMs;
      await showChanged(ctx, options.format, () =>
        changePolicy(ctx, { database: options.database, maxFutureMs }, { level, metrics, mode }),
      );
    },
  });
}

/** `tickertape levels auto minute <metric...>`: the metrics back to the automatic rule. */
const autoDefinition = defineCommand({
  name: 'auto',
  summary:
    "hand these metrics back to the scheduler's automatic minute-level skip (undoes keep or skip at the minute level)",
  arguments: [
    new Argument('<level>', 'minute (the only level skipped automatically)').argParser(
      levelArgument,
    ),
    new Argument('<metric...>', 'metric names, e.g. mms.cpu'),
  ],
  options: levelsFormat(),
  async run(
    ctx,
    options: { database: string; format: OutputFormat },
    level: Level,
    metrics: string[],
  ) {
    await showChanged(ctx, options.format, () => handBack(ctx, options.database, level, metrics));
  },
});

/** Prints the policy a change made, or stops with the policy's refusal (exit 2). */
async function showChanged(
  ctx: CommandRun,
  format: OutputFormat,
  change: () => Promise<LevelPolicy>,
): Promise<void> {
  try {
    printPolicy(ctx, format, await change());
  } catch (err) {
    if (!(err instanceof LevelPolicyError)) throw err;
    ctx.usage(err.message, EXIT.refused);
  }
}

function alphaArgument(value: string): number {
  try {
    return checkSketchAlpha(Number(value));
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** `tickertape levels sketch [--alpha α] <metric...>`: quantile sketches on (at α). */
const sketchOnDefinition = defineCommand({
  name: 'sketch',
  summary: 'keep quantile sketches of these metrics (every level)',
  arguments: [new Argument('<metric...>', 'metric names, e.g. traffic')],
  options: [
    new Option(
      '--alpha <α>',
      "relative accuracy of the metric's quantiles, 0.001 to 0.2 (finer keeps more bins); from now on — sketches already written keep theirs",
    )
      .argParser(alphaArgument)
      .default(SKETCH_ALPHA),
    ...levelsFormat(),
  ],
  async run(
    ctx,
    options: { database: string; alpha: number; format: OutputFormat },
    metrics: string[],
  ) {
    await showChanged(ctx, options.format, () =>
      changeMetricPolicy(ctx, options.database, [
        { kind: 'sketch', metrics, on: true, alpha: options.alpha },
      ]),
    );
  },
});

/** `tickertape levels no-sketch <metric...>`: quantile sketches off. */
const sketchOffDefinition = defineCommand({
  name: 'no-sketch',
  summary: 'stop keeping quantile sketches of these metrics',
  arguments: [new Argument('<metric...>', 'metric names, e.g. traffic')],
  options: levelsFormat(),
  async run(ctx, options: { database: string; format: OutputFormat }, metrics: string[]) {
    await showChanged(ctx, options.format, () =>
      changeMetricPolicy(ctx, options.database, [{ kind: 'sketch', metrics, on: false }]),
    );
  },
});

function weightPair(value: string, previous: [string, string][] = []): [string, string][] {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1)
    throw new InvalidArgumentError(`${value}: give <field>=<weight field>, e.g. price=volume`);
  return [...previous, [value.slice(0, at), value.slice(at + 1)]];
}

const weightDefinition = defineCommand({
  name: 'weight',
  summary: 'keep Σ(field × weight) and Σ weight of fields of a metric (weighted averages)',
  arguments: [
    new Argument('<metric>', 'metric name, e.g. stock.tick'),
    new Argument(
      '<field=weight...>',
      'a field and the field weighing it, e.g. price=volume',
    ).argParser(weightPair),
  ],
  options: levelsFormat(),
  async run(
    ctx,
    options: { database: string; format: OutputFormat },
    metric: string,
    pairs: [string, string][],
  ) {
    const changes: MetricPolicyChange[] = pairs.map(([field, by]) => ({
      kind: 'weight',
      metric,
      field,
      by,
    }));
    await showChanged(ctx, options.format, () =>
      changeMetricPolicy(ctx, options.database, changes),
    );
  },
});

const noWeightDefinition = defineCommand({
  name: 'no-weight',
  summary: 'stop weighting fields of a metric',
  arguments: [
    new Argument('<metric>', 'metric name, e.g. stock.tick'),
    new Argument('<field...>', 'field names, e.g. price'),
  ],
  options: levelsFormat(),
  async run(
    ctx,
    options: { database: string; format: OutputFormat },
    metric: string,
    fields: string[],
  ) {
    const changes: MetricPolicyChange[] = fields.map((field) => ({
      kind: 'weight',
      metric,
      field,
      by: undefined,
    }));
    await showChanged(ctx, options.format, () =>
      changeMetricPolicy(ctx, options.database, changes),
    );
  },
});

/** `tickertape levels`: which levels keep which metrics, and the verbs that change it. */
export const levelsDefinition = defineCommand({
  name: 'levels',
  summary: 'which levels keep which metrics (the level policy)',
  options: [
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
    ...levelsFormat(),
  ],
  help: LEVELS_HELP,
  async run(ctx, options: { database: string; format: OutputFormat }) {
    printPolicy(ctx, options.format, await showPolicy(ctx, options.database));
  },
  subcommands: [
    suggestDefinition,
    changeDefinition('skip', 'skip', 'stop writing these metrics at a level (too fine for them)'),
    changeDefinition(
      'compact',
      'compact',
      'keep a sum and a count per sub-slot of these metrics at a level (hour)',
    ),
    changeDefinition(
      'keep',
      'full',
      "write these metrics in the level's full layout again (at the minute level: never skipped automatically)",
    ),
    autoDefinition,
    sketchOnDefinition,
    sketchOffDefinition,
    weightDefinition,
    noWeightDefinition,
  ],
});
