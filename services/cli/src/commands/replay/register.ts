import type { GroupStart } from '@tickertape/clients';
import { STORES, TICK_TOPIC, type Store } from '@tickertape/topology';
import { InvalidArgumentError, type Command } from 'commander';
import { groupStartArgument, intervalArgument } from '../../arguments.js';
import type { CommandContext } from '../context.js';
import { storesArgument } from '../../store-arguments.js';
import { formatReplay, REPLAY_HELP, replayCommand } from './run.js';

/** `tickertape replay`: rewind a store's consumer group. */
export function registerReplay(program: Command, ctx: CommandContext): void {
  program
    .command('replay')
    .description("rewind a level's consumer group to the start of the topic (workers stopped)")
    .requiredOption(
      '--store <store>',
      `the level or the segment store (${STORES.join(', ')})`,
      (text) => {
        const [store] = storesArgument(text);
        if (store === undefined || text.includes(',')) throw new InvalidArgumentError('one store');
        return store;
      },
    )
    .option('--group <id>', "its consumer group, when not the workers' default")
    .option('--topic <name>', 'tick topic', TICK_TOPIC)
    .option(
      '--from <where>',
      'earliest (a replay), latest, or an ISO time: where the group starts reading',
      groupStartArgument,
      'earliest' as GroupStart,
    )
    .option(
      '--wait <duration>',
      "wait up to this long for the group's members to leave, e.g. 45s (a crashed worker stays one until its session times out)",
      intervalArgument,
    )
    .addHelpText('after', REPLAY_HELP)
    .action(
      async (options: {
        store: Store;
        group?: string;
        topic: string;
        from: GroupStart;
        wait?: number;
      }) => {
        const { env, logger } = ctx.ready();
        const { wait, ...rest } = options;
        ctx.io.stdout(
          formatReplay(
            await replayCommand(
              env,
              { ...rest, ...(wait === undefined ? {} : { waitMs: wait }) },
              logger,
            ),
          ),
        );
      },
    );
}
