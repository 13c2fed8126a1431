import {
  LEVELS,
  LevelPolicyError,
  isLevel,
  type Level,
  type LevelMode,
  type LevelPolicy,
} from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import { changeLevelPolicy, readLevelPolicy } from '@tickertape/store';
import { InvalidArgumentError, type Command } from 'commander';
import type { Db } from 'mongodb';
import { openMongo } from '../connect.js';
import type { CliEnv } from '../env.js';

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
For metrics at one tick a minute: skip minute, compact hour. Every 10 s: skip minute. Set a
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

export function addLevelsCommand(program: Command, io: LevelsIo): void {
  const withDb = async <T>(database: string, work: (db: Db) => Promise<T>): Promise<T> => {
    const { env, logger } = io.ready();
    const mongo = await openMongo(env, logger, 'tickertape-levels');
    try {
      return await work(mongo.db(database));
    } finally {
      await mongo.close();
    }
  };
  const levels = program
    .command('levels')
    .description('which levels keep which metrics (the level policy)')
    .option('--database <name>', 'MongoDB database of the rollups', 'tickertape')
    .addHelpText('after', LEVELS_HELP)
    .action(async (options: { database: string }) => {
      io.stdout(formatPolicy(await withDb(options.database, readLevelPolicy)));
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
          const policy = await withDb(database, (db) =>
            changeLevelPolicy(db, level, metrics, mode, io.now()),
          );
          io.stdout(formatPolicy(policy));
        } catch (err) {
          if (!(err instanceof LevelPolicyError)) throw err;
          command.error(`error: ${err.message}`, { exitCode: 2 });
        }
      });
}
