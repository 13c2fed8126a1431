import type { TimeBounds } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import { isTickRejected, readTickLines, readTickRecord, type InputFormat } from '@tickertape/tick';
import type { Readable } from 'node:stream';
import { openTopicForPublishing } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { plural } from '../../plural.js';
import { SOURCE } from './run.js';

export interface DryRunOptions {
  format: InputFormat;
  topic: string;
  input: Readable;
  /** The workers' MAX_LATENESS_MS and MAX_FUTURE_MS. */
  bounds: TimeBounds;
  /** The record time the workers would judge each tick against: the broker's append time, now. */
  nowMs: number;
}

export interface DryRunResult {
  topic: string;
  /** Lines that hold a tick the workers would fold. */
  good: number;
  /** Lines that are not a tick, or hold one the workers would dead-letter. */
  bad: number;
  /** The topic's timestamp type is not LogAppendTime: what that means and its fix. */
  clocksProblem?: string;
}

/**
 * Checks every line as the workers will, publishing nothing: each tick is encoded as `publish`
 * encodes it (the producer's checks, the registry's schema, the size limit), then read back by
 * `readTickRecord`, the workers' own reading (decode, validation, lateness against a record time
 * of `nowMs`). So a line passes exactly when a worker would fold it if it were published now.
 * The schema is registered as `publish` would (idempotent); no record is written.
 */
export async function dryRun(
  env: CliEnv,
  options: DryRunOptions,
  logger: Logger,
  onBadLine: (line: number, reason: string) => void,
): Promise<DryRunResult> {
  const { codec, clocksProblem } = await openTopicForPublishing(
    env,
    logger,
    'tickertape-publish',
    options.topic,
  );
  let good = 0;
  let bad = 0;
  const reportBad = (line: number, reason: string) => {
    bad += 1;
    onBadLine(line, reason);
  };
  const timestamp = String(options.nowMs);
  for await (const line of readTickLines(options.input, options.format)) {
    if ('error' in line) {
      reportBad(line.number, line.error.message);
      continue;
    }
    const tick =
      line.tick.source === undefined || line.tick.source === null
        ? { ...line.tick, source: SOURCE }
        : line.tick;
    let value: Buffer;
    try {
      value = await codec.encode(tick);
    } catch (err) {
      if (!isTickRejected(err)) throw err;
      reportBad(line.number, err.message);
      continue;
    }
    const verdict = await readTickRecord(codec, { value, timestamp }, options.bounds);
    if (verdict.ok) good += 1;
    else reportBad(line.number, `${verdict.reason}: ${verdict.detail}`);
  }
  return {
    topic: options.topic,
    good,
    bad,
    ...(clocksProblem === undefined ? {} : { clocksProblem }),
  };
}

export function formatDryRun(result: DryRunResult): string {
  return (
    `dry run: ${plural(result.good, 'good tick')}, ${plural(result.bad, 'bad line')}; ` +
    `nothing published to ${result.topic}\n`
  );
}
