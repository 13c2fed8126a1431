#!/usr/bin/env node
import { isTickertapeError } from '@tickertape/errors';
import { createLogger } from '@tickertape/logger';
import { Command, InvalidArgumentError } from 'commander';
import { pino } from 'pino';
import { roundtrip } from './commands/roundtrip.js';
import { parseCliEnv } from './env.js';
import { formatRoundtrip } from './format.js';

function positiveInt(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new InvalidArgumentError('must be a positive integer');
  return value;
}

async function main(argv: string[]): Promise<void> {
  const env = parseCliEnv(process.env);
  // Diagnostics go to stderr so stdout stays the command's answer (pipeable, CSV/JSON later).
  const logger = createLogger({
    name: 'tickertape',
    level: env.LOG_LEVEL,
    destination: pino.destination(2),
  });

  const program = new Command('tickertape').description(
    'tickertape: Kafka → MongoDB time-series rollups',
  );
  program
    .command('roundtrip')
    .description('publish one Avro tick, read it back from Kafka and upsert it into MongoDB')
    .option('--topic <name>', 'Kafka topic (created if missing)', 'tickertape-roundtrip')
    .option('--database <name>', 'MongoDB database', 'tickertape_demo')
    .option('--timeout-ms <ms>', 'give up after this long', positiveInt, 30_000)
    .action(async (options: { topic: string; database: string; timeoutMs: number }) => {
      const result = await roundtrip(env, options, logger);
      process.stdout.write(formatRoundtrip(result, options));
    });
  await program.parseAsync(argv);
}

main(process.argv).catch((err: unknown) => {
  // Our own errors carry a message written for the operator; anything else gets its stack.
  const text = isTickertapeError(err)
    ? `${err.code}: ${err.message}`
    : err instanceof Error
      ? (err.stack ?? err.message)
      : String(err);
  process.stderr.write(`tickertape: ${text}\n`);
  process.exitCode = 1;
});
