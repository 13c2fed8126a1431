import type { GroupStart } from '@tickertape/clients';
import { STORES, TICK_TOPIC, type Store } from '@tickertape/topology';
import { InvalidArgumentError, Option } from 'commander';
import { groupStartArgument, intervalArgument } from '../../arguments.js';
import { storesArgument } from '../../store-arguments.js';
import { defineCommand } from '../command.js';
import { formatReplay, REPLAY_HELP, replayCommand } from './run.js';

/** `tickertape replay`: rewind a store's consumer group. */
export const replayDefinition = defineCommand({
  name: 'replay',
  summary: "rewind a level's consumer group to the start of the topic (workers stopped)",
  options: [
    new Option('--store <store>', `the level or the segment store (${STORES.join(', ')})`)
      .argParser((text) => {
        const [store] = storesArgument(text);
        if (store === undefined || text.includes(',')) throw new InvalidArgumentError('one store');
        return store;
      })
      .makeOptionMandatory(),
    new Option('--group <id>', "its consumer group, when not the workers' default"),
    new Option('--topic <name>', 'tick topic').default(TICK_TOPIC),
    new Option(
      '--from <where>',
      'earliest (a replay), latest, or an ISO time: where the group starts reading',
    )
      .argParser(groupStartArgument)
      .default('earliest'),
    new Option(
      '--wait <duration>',
      "wait up to this long for the group's members to leave, e.g. 45s (a crashed worker stays one until its session times out)",
    ).argParser(intervalArgument),
  ],
  help: REPLAY_HELP,
  async run(
    ctx,
    options: { store: Store; group?: string; topic: string; from: GroupStart; wait?: number },
  ) {
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
});
