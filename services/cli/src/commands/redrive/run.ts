import type { StartProgress } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { KNOWN_DLQ_REASONS, redrive, type RedriveReport } from '@tickertape/producer';
import { openKafka } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { plural } from '../../plural.js';
import { formatTable } from '../../table.js';

export interface RedriveCommandOptions {
  dlqTopic: string;
  /** Overrides each record's `tickertape-source-topic` header. */
  topic?: string;
  reasons: string[];
  dryRun: boolean;
  max?: number;
  fromOffset?: bigint;
  timeoutMs: number;
  startProgress?: StartProgress;
}

export const REDRIVE_HELP = `
Reads the DLQ from its beginning (or --from-offset, in every partition) up to the end offsets it
has when the command starts, and republishes each matching record's original key and value
bytes, with its original headers, to the topic it came from (the tickertape-source-topic
header, or --topic). A record whose source partition and offset appeared earlier in the DLQ is
a duplicate (a replayed worker dead-letters twice) and is skipped. Reasons the worker writes:
  ${KNOWN_DLQ_REASONS.join(', ')}
Fix the cause first (the data, the worker's limits): a record that fails again is dead-lettered
again, and a later redrive picks it up.
`;

/** Reasons asked for that no worker writes: most likely typos. */
export function unknownReasons(reasons: readonly string[]): string[] {
  return reasons.filter((reason) => !KNOWN_DLQ_REASONS.includes(reason));
}

export async function redriveCommand(
  env: CliEnv,
  options: RedriveCommandOptions,
  logger: Logger,
): Promise<RedriveReport> {
  const kafka = await openKafka(env, logger, 'tickertape-redrive', { registry: false });
  return redrive(kafka, {
    dlqTopic: options.dlqTopic,
    topic: options.topic,
    reasons: options.reasons,
    dryRun: options.dryRun,
    max: options.max,
    fromOffset: options.fromOffset,
    timeoutMs: options.timeoutMs,
    logger,
    ...(options.startProgress === undefined ? {} : { startProgress: options.startProgress }),
  });
}

export function formatRedrive(report: RedriveReport): string {
  const ranges = report.partitions
    .map((p) => `partition ${p.partition} offsets ${p.start}..${p.end}`)
    .join(', ');
  const title = report.dryRun
    ? `dry run: redrive from ${report.dlqTopic} (${ranges}); nothing was published`
    : `redrive from ${report.dlqTopic} (${ranges})`;
  const rows = [...report.byReason, report.total].map((row) => [
    row.reason,
    row.seen,
    row.redriven,
    row.skipped,
  ]);
  const { duplicate, filtered, overMax, noSourceTopic } = report.skipped;
  return [
    `${title}\n`,
    formatTable(['reason', 'seen', report.dryRun ? 'would redrive' : 'redriven', 'skipped'], rows),
    `skipped: ${plural(duplicate, 'duplicate')}, ${filtered} not matching --reason, ` +
      `${overMax} over --max, ${noSourceTopic} without an existing source topic\n`,
  ].join('');
}
