import type { GroupStart } from '@tickertape/clients';
import { STORES, TICK_TOPIC, type Store } from '@tickertape/topology';
import { InvalidArgumentError, Option } from 'commander';
import { groupStartArgument, intervalArgument } from '../../arguments.js';
import { storesArgument } from '../../store-arguments.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStarter } from '../../output/progress-option.js';
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
    ...formatOptions(['table', 'json']),
    ...progressOptions(),
  ],
  help: REPLAY_HELP,
  async run(
    ctx,
    options: {
      store: Store;
      group?: string;
      topic: string;
      from: GroupStart;
      wait?: number;
      format: OutputFormat;
      progress?: boolean;
    },
  ) {
    const { env, logger } = ctx.ready();
    const startProgress = progressStarter(ctx.io.progress, options.progress, { now: ctx.now });
    const result = await replayCommand(
      env,
      {
        store: options.store,
        topic: options.topic,
        from: options.from,
        ...(options.group === undefined ? {} : { group: options.group }),
        ...(options.wait === undefined ? {} : { waitMs: options.wait }),
        ...(startProgress === undefined ? {} : { startProgress }),
      },
      logger,
    );
    ctx.io.stdout(options.format === 'json' ? jsonDocument(result) : formatReplay(result));
  },
});
