import type { StartProgress } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import { groupIdOf, type Store } from '@tickertape/topology';
import {
  verify,
  WHOLE_TIME,
  type CheckedTarget,
  type Difference,
  type VerifyReport,
} from '@tickertape/verify';
import { openKafka, openStores, tickCodecFor } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { isoTime } from '../../format/time.js';
import { plural } from '../../plural.js';
import { formatTable } from '../../table.js';

export interface VerifyCommandOptions {
  topic: string;
  dlqTopic: string;
  database: string;
  stores: Store[];
  /** Consumer group per store where it is not the workers' default. */
  groups: Partial<Record<Store, string>>;
  fromMs?: number;
  toMs?: number;
  maxLatenessMs: number;
  maxFutureMs: number;
  segmentMaxPoints: number;
  writeOnChange: string[];
  waitMs: number;
  timeoutMs: number;
}

export const VERIFY_HELP = `
Reads the tick topic from its beginning up to its current end, waits until every checked
level's consumer group has committed that far (--wait-ms), reads the dead-letter topic, folds
the ticks itself (not with the workers' code) and compares every bucket of every level and the
segment store's points with the database. With --from/--to only buckets (and segment days)
wholly inside the range are compared; the topic is still read whole.

A record that can never be a tick must be in the DLQ with the reason the checker finds; so must
a valid tick whose event time is more than --max-lateness-ms before, or --max-future-ms after,
its Kafka record's timestamp (TOO_LATE, TIMESTAMP_OUT_OF_RANGE: the workers' MAX_LATENESS_MS
and MAX_FUTURE_MS). The record's timestamp is stored in the log, so the verdicts, like the
buckets, are the same whenever the check runs (docs/history.md).

Exit status: 0 when nothing differs, 1 when anything does (each difference is listed: missing,
extra, or wrong with the field, the expected and the stored value).
`;

export async function verifyCommand(
  env: CliEnv,
  options: VerifyCommandOptions,
  logger: Logger,
  startProgress?: StartProgress,
): Promise<VerifyReport> {
  const kafka = await openKafka(env, logger, 'tickertape-verify', { registry: true });
  const codec = await tickCodecFor(env, options.topic);
  const stores = await openStores(env, logger, 'tickertape-verify', options.database);
  try {
    const targets: CheckedTarget[] = options.stores.map((store) => ({
      store,
      groupId: options.groups[store] ?? groupIdOf(store),
    }));
    return await verify({
      kafka,
      stores,
      decode: (value) => codec.decode(value),
      topic: options.topic,
      dlqTopic: options.dlqTopic,
      targets,
      range:
        options.fromMs === undefined && options.toMs === undefined
          ? WHOLE_TIME
          : {
              fromMs: options.fromMs ?? Number.NEGATIVE_INFINITY,
              toMs: options.toMs ?? Number.POSITIVE_INFINITY,
            },
      bounds: { maxLatenessMs: options.maxLatenessMs, maxFutureMs: options.maxFutureMs },
      segments: {
        maxPoints: options.segmentMaxPoints,
        writeOnChange: new Set(options.writeOnChange),
      },
      waitMs: options.waitMs,
      readTimeoutMs: options.timeoutMs,
      logger,
      ...(startProgress === undefined ? {} : { startProgress }),
    });
  } finally {
    await stores.close();
  }
}

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function range(report: VerifyReport): string {
  const { fromMs, toMs } = report.range;
  if (fromMs === Number.NEGATIVE_INFINITY && toMs === Number.POSITIVE_INFINITY) return 'all time';
  const end = (ms: number) => (Number.isFinite(ms) ? isoTime(ms) : '…');
  return `${end(fromMs)} to ${end(toMs)}`;
}

export function formatVerify(report: VerifyReport, limit: number): string {
  const { tally } = report;
  const reasons = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ') || 'none';
  const lines = [
    `verify ${report.topic} (${report.ends.map((p) => `p${p.partition}<${p.end}`).join(' ')}) ` +
      `against the database, ${range(report)}\n`,
    `records: ${tally.records} (${tally.valid} valid ticks); not ticks: ${reasons(tally.rejected)}; ` +
      `dead-lettered for their time: ${reasons(tally.dropped)}; DLQ records: ${tally.deadLetters}\n\n`,
    formatTable(
      ['store', 'expected', 'stored', 'differences'],
      report.stores.map((s) => [s.store, s.expected, s.stored, s.differences]),
    ),
  ];
  const shown: Difference[] = report.differences.slice(0, limit);
  if (shown.length > 0) {
    lines.push(
      '\n',
      formatTable(
        ['store', 'kind', 'id', 'field', 'expected', 'stored'],
        shown.map((d) => [d.store, d.kind, d.id, d.path ?? '', show(d.expected), show(d.actual)]),
      ),
    );
    if (report.differences.length > shown.length)
      lines.push(`… and ${report.differences.length - shown.length} more (--limit)\n`);
  }
  lines.push(
    `\n${plural(report.differences.length, 'difference')}${report.differences.length === 0 ? ': every bucket, segment and dead letter matches the topic' : ''}\n`,
  );
  return lines.join('');
}
