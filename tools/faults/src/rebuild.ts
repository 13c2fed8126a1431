import { LEVEL_SPECS } from '@tickertape/buckets';
import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { openMongoStores } from '@tickertape/store';
import { runProcess } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';
import type { RunNames } from './processes.js';
import type { FaultEvent } from './schedule.js';

/** One rebuild the suite ran, as the report keeps it. */
export interface RebuildRun {
  level: string;
  source: string;
  from: string;
  to: string;
  elapsedMs: number;
  /** The command's last lines: its report. */
  output: string;
}

export class RebuildFaultError extends TickertapeError {
  override readonly name = 'RebuildFaultError';
  constructor(message: string) {
    super('FAULT_REBUILD_FAILED', message, { retriable: false });
  }
}

/** The CLI, run from source like the suite's other processes (no build needed). */
const CLI_DIR = fileURLToPath(new URL('../../cli', import.meta.url));

interface RebuildContext {
  /** The environment the CLI runs with. */
  env: Record<string, string>;
  run: RunNames;
  logger: Logger;
}

/**
 * `tickertape rebuild` of a level over the whole final part of the run, as an operator would run
 * it, while the load and the other faults go on: from the first slot the run can hold (an hour
 * before now is more than any tick of the load is old) to the level's finality watermark.
 */
export async function rebuildFinal(
  ctx: RebuildContext,
  event: Extract<FaultEvent, { kind: 'rebuild' }>,
): Promise<RebuildRun> {
  const stores = await openMongoStores({
    uri: ctx.env.MONGODB_URI!,
    database: ctx.run.database,
    appName: 'tickertape-faults',
    logger: ctx.logger,
  });
  let to: number | undefined;
  try {
    to = (await stores.rollups.readWatermarks()).finalBefore[event.level];
  } finally {
    await stores.close();
  }
  const slot = LEVEL_SPECS[event.level].slotMs;
  const from = Math.floor((Date.now() - 3_600_000) / slot) * slot;
  if (to === undefined || to <= from)
    throw new RebuildFaultError(`nothing of ${event.level} is final yet (watermark ${to})`);
  const began = Date.now();
  const args = [
    '--import',
    'tsx',
    '--conditions=source',
    'src/main.ts',
    'rebuild',
    '--level',
    event.level,
    '--source',
    event.source,
    '--from',
    new Date(from).toISOString(),
    '--to',
    new Date(to).toISOString(),
    '--database',
    ctx.run.database,
    '--topic',
    ctx.run.topic,
    '--max-lateness-ms',
    String(ctx.run.maxLatenessMs),
    '--no-progress',
  ];
  const result = await runProcess(process.execPath, args, { env: ctx.env, cwd: CLI_DIR });
  const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-12).join('\n');
  if (result.code !== 0)
    throw new RebuildFaultError(`tickertape rebuild exited ${result.code}: ${output}`);
  return {
    level: event.level,
    source: event.source,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    elapsedMs: Date.now() - began,
    output,
  };
}
