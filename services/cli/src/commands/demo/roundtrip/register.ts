import type { Command } from 'commander';
import { positiveInt } from '../../../arguments.js';
import type { CommandContext } from '../../context.js';
import { DEMO_COMMANDS } from '../heading.js';
import { formatRoundtrip } from './format.js';
import { roundtrip } from './run.js';

/** `tickertape roundtrip`: the demo's shortest path of one tick through the stack. */
export function registerRoundtrip(program: Command, ctx: CommandContext): void {
  program
    .command('roundtrip')
    .helpGroup(DEMO_COMMANDS)
    .description(
      "publish one Avro tick, read it back from Kafka and write it into its minute bucket with the workers' writer",
    )
    .option('--topic <name>', 'Kafka topic (created if missing)', 'tickertape-roundtrip')
    .option('--database <name>', 'MongoDB database', 'tickertape_demo')
    .option('--timeout-ms <ms>', 'give up after this long', positiveInt, 30_000)
    .action(async (options: { topic: string; database: string; timeoutMs: number }) => {
      const { env, logger } = ctx.ready();
      const result = await roundtrip(env, options, logger);
      ctx.io.stdout(formatRoundtrip(result, options));
    });
}
