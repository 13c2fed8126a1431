#!/usr/bin/env node
import { describeError } from '@tickertape/errors';
import { createLogger } from '@tickertape/logger';
import { Command, Option } from 'commander';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadBenchEnv } from './env.js';
import { printReport } from './output.js';
import { readLoadDocument, readLoadMarkdown, readTargets } from './read-load/read-load-markdown.js';
import { runReadLoad } from './read-load/read-load.js';
import { SEED_001_MIX } from './read-load/route-mix.js';

const positive = (text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${text} is not a positive integer`);
  return n;
};

/**
 * `bash scripts/bench.sh reads`: seed 001's read load on the local stack (read-load/read-load.ts),
 * printed, and written as docs/benchmarks-reads.md with its figures in docs/benchmarks-reads.json.
 */
async function main(): Promise<void> {
  const options = new Command('bench-reads')
    .addOption(
      new Option('--profile <name>', 'full: 10 s loads; smoke: 2 s loads over 2,000 sensors')
        .choices(['full', 'smoke'])
        .default('full'),
    )
    .option('--duration <seconds>', 'how long each load runs', positive)
    .option('--connections <n>', 'concurrent clients', positive, 10)
    .option('--keep', 'keep the database for inspection', false)
    .option('--write <file>', 'where the Markdown goes', 'docs/benchmarks-reads.md')
    .option('--no-write', 'print only')
    .parse()
    .opts<{
      profile: 'full' | 'smoke';
      duration?: number;
      connections: number;
      keep: boolean;
      write: string | false;
    }>();
  const env = loadBenchEnv();
  const logger = createLogger({ name: 'bench-reads', level: env.LOG_LEVEL });
  const smoke = options.profile === 'smoke';
  const report = await runReadLoad(
    env,
    {
      mix: smoke ? { ...SEED_001_MIX, sensors: 2_000 } : SEED_001_MIX,
      durationS: options.duration ?? (smoke ? 2 : 10),
      connections: options.connections,
      seed: 1,
      keep: options.keep,
    },
    logger,
  );
  const markdown = readLoadMarkdown(report);
  printReport(`${markdown}\n`);
  if (options.write !== false && !smoke) {
    await mkdir(dirname(options.write), { recursive: true });
    await writeFile(options.write, readLoadDocument(report));
    await writeFile(
      options.write.replace(/\.md$/, '.json'),
      `${JSON.stringify({ ...report, targets: readTargets(report) }, null, 2)}\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-reads: ${describeError(err)}\n`);
  process.exitCode = 1;
});
