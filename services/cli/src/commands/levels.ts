import { LEVELS, isLevel, type Level, type LevelPolicy } from '@tickertape/buckets';
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
bucket holds one tick, while the hour bucket's per-minute map holds that minute exactly. A
skipped level stores nothing of the metric: its workers acknowledge the ticks without writing,
the checker expects nothing there, and readers take the finest level that keeps the metric (a
minute-wide chart of it reads the hour buckets). Set a metric's policy before its producers
start; a change reaches running workers within 10 s and applies to what they write from then
on — rebuild a range (--source topic) to apply it to what is stored. docs/data-layout.md.
`;

function levelArgument(value: string): Level {
  if (!isLevel(value))
    throw new InvalidArgumentError(`unknown level ${value}; levels: ${LEVELS.join(', ')}`);
  return value;
}

export function formatPolicy(policy: LevelPolicy): string {
  const lines = LEVELS.map((level) => {
    const skipped = policy.skippedAt(level);
    return `${level.padEnd(6)}  ${skipped.length === 0 ? 'keeps every metric' : `skips ${skipped.join(', ')}`}`;
  });
  return `${lines.join('\n')}\n`;
}

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
  for (const [verb, skip] of [
    ['skip', true],
    ['keep', false],
  ] as const)
    levels
      .command(verb)
      .description(
        skip
          ? 'stop writing these metrics at a level (too fine for them)'
          : 'write these metrics at a level again',
      )
      .argument('<level>', `one of ${LEVELS.join(', ')}`, levelArgument)
      .argument('<metric...>', 'metric names, e.g. mms.cpu')
      .action(async (level: Level, metrics: string[], _options: unknown, command: Command) => {
        // --database belongs to `levels` (commander gives a parent's option to the parent).
        const { database } = command.optsWithGlobals<{ database: string }>();
        const policy = await withDb(database, (db) =>
          changeLevelPolicy(db, level, metrics, skip, io.now()),
        );
        io.stdout(formatPolicy(policy));
      });
}
