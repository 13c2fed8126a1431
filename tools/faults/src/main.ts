#!/usr/bin/env node
import { createLogger } from '@tickertape/logger';
import { startFailure } from '@tickertape/ops';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFaultsEnv } from './env.js';
import { formatFaultRun } from './format.js';
import { runFaults } from './suite.js';

async function main(): Promise<void> {
  const env = parseFaultsEnv(process.env);
  const logger = createLogger({ name: 'faults', level: env.LOG_LEVEL });
  const report = await runFaults(env, logger);
  await mkdir(env.FAULT_OUT_DIR, { recursive: true });
  const file = join(env.FAULT_OUT_DIR, `faults-${report.profile}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatFaultRun(report)}summary: ${file}\n`);
  process.exitCode = report.passed ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(startFailure('faults', err));
  process.exit(1);
});
