import { Option } from 'commander';
import { positiveInt } from '../../../arguments.js';
import { formatOptions, type OutputFormat } from '../../../output/format-option.js';
import { jsonDocument } from '../../../output/json.js';
import { defineCommand } from '../../command.js';
import { DEMO_COMMANDS } from '../heading.js';
import { formatRoundtrip } from './format.js';
import { roundtrip } from './run.js';

/** `tickertape roundtrip`: the demo's shortest path of one tick through the stack. */
export const roundtripDefinition = defineCommand({
  name: 'roundtrip',
  group: DEMO_COMMANDS,
  summary:
    "publish one Avro tick, read it back from Kafka and write it into its minute bucket with the workers' writer",
  options: [
    new Option('--topic <name>', 'Kafka topic (created if missing)').default(
      'tickertape-roundtrip',
    ),
    new Option('--database <name>', 'MongoDB database').default('tickertape_demo'),
    new Option('--timeout-ms <ms>', 'give up after this long')
      .argParser(positiveInt)
      .default(30_000),
    ...formatOptions(['table', 'json']),
  ],
  async run(
    ctx,
    options: { topic: string; database: string; timeoutMs: number; format: OutputFormat },
  ) {
    const { env, logger } = ctx.ready();
    const result = await roundtrip(env, options, logger);
    ctx.io.stdout(
      options.format === 'json' ? jsonDocument(result) : formatRoundtrip(result, options),
    );
  },
});
