#!/usr/bin/env node
import { describeError } from '@tickertape/errors';
import { createLogger } from '@tickertape/logger';
import { CommanderError } from 'commander';
import { pino } from 'pino';
import { parseArgs } from './args.js';
import { loadBenchEnv } from './env.js';
import { renderMarkdown } from './markdown.js';
import { printReport } from './output.js';
import { runBench } from './run.js';
import { writeReport } from './write-report.js';

async function main(): Promise<void> {
  const { settings, commandLine } = parseArgs(process.argv.slice(2));
  const env = loadBenchEnv();
  // Progress on stderr, so stdout is the report alone.
  const logger = createLogger({
    name: 'bench',
    level: env.LOG_LEVEL,
    destination: pino.destination(2),
  });
  const report = await runBench({
    settings,
    env,
    logger,
    workerNodeArgs: env.BENCH_WORKER_NODE_ARGS,
  });
  if (settings.docPath === undefined) {
    printReport(renderMarkdown(report, { command: commandLine }));
    return;
  }
  const written = await writeReport(report, settings.docPath, commandLine);
  printReport(written.markdown);
  logger.info({ doc: written.doc, chart: written.chart, json: written.json }, 'report written');
}

main().catch((err: unknown) => {
  // Commander has printed the help or what is wrong with the arguments already.
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode;
    return;
  }
  // Bad arguments and bad configuration name what is wrong; anything else says what failed.
  process.stderr.write(`bench: ${describeError(err)}\n`);
  process.exitCode = 1;
});
