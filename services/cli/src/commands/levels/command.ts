import { LEVELS, LevelPolicyError, isLevel, type Level, type LevelMode } from '@tickertape/buckets';
import { Argument, InvalidArgumentError, Option } from 'commander';
import { positiveInt } from '../../arguments.js';
import { EXIT } from '../../exit-codes.js';
import { defineCommand } from '../command.js';
import { changePolicy, formatPolicy, LEVELS_HELP, showPolicy, suggestPolicy } from './run.js';

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
  ],
  async run(ctx, options: { database: string; hours: number; apply: boolean }) {
    ctx.io.stdout(await suggestPolicy(ctx, options));
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
    // `database` is `levels --database` (commander gives a parent's option to the parent).
    async run(ctx, options: { database: string }, level: Level, metrics: string[]) {
      try {
        ctx.io.stdout(
          formatPolicy(await changePolicy(ctx, options.database, { level, metrics, mode })),
        );
      } catch (err) {
        if (!(err instanceof LevelPolicyError)) throw err;
        ctx.usage(err.message, EXIT.refused);
      }
    },
  });
}

/** `tickertape levels`: which levels keep which metrics, and the verbs that change it. */
export const levelsDefinition = defineCommand({
  name: 'levels',
  summary: 'which levels keep which metrics (the level policy)',
  options: [
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
  ],
  help: LEVELS_HELP,
  async run(ctx, options: { database: string }) {
    ctx.io.stdout(await showPolicy(ctx, options.database));
  },
  subcommands: [
    suggestDefinition,
    changeDefinition('skip', 'skip', 'stop writing these metrics at a level (too fine for them)'),
    changeDefinition(
      'compact',
      'compact',
      'keep a sum and a count per sub-slot of these metrics at a level (hour)',
    ),
    changeDefinition('keep', 'full', "write these metrics in the level's full layout again"),
  ],
});
