import type { Logger } from '@tickertape/logger';
import { InFlight, TickProducer } from '@tickertape/producer';
import { isTickRejected, seriesKey } from '@tickertape/tick';
import type { Readable } from 'node:stream';
import { openTopicForPublishing } from '../../connect.js';
import { formatDuration } from '../../duration.js';
import type { CliEnv } from '../../env.js';
import { readTickLines, type InputFormat } from '@tickertape/tick';
import { plural } from '../../plural.js';

export { INPUT_FORMATS, inputFormat, type InputFormat } from '@tickertape/tick';

export interface PublishOptions {
  format: InputFormat;
  topic: string;
  input: Readable;
}

export interface PublishResult {
  topic: string;
  /** Ticks the broker acknowledged. */
  published: number;
  /** Lines skipped: not a tick, or a tick a worker would dead-letter. */
  bad: number;
  /** Ticks taken but not acknowledged. */
  failed: number;
  firstFailure?: string;
  /** The topic's timestamp type is not LogAppendTime: what that means and its fix. */
  clocksProblem?: string;
  series: number;
  batches: number;
  bytes: number;
  elapsedMs: number;
}

/** Ticks buffered or in flight before the reader waits for acknowledgements. */
const MAX_PENDING = 10_000;
/** Stamped on published ticks that carry no `source`. */
export const SOURCE = 'tickertape-publish';

export const PUBLISH_HELP = `
Input, one tick a line (blank lines are skipped):
  jsonl  a JSON object a line; tags, strings and source may be left out:
           {"metric":"traffic","tags":{"sensor":"900006","segment":"I80_mile34"},
            "ts":"2026-11-21T08:00:00Z","fields":{"speed":63,"travel_time":57},
            "strings":{"conditions":"rain"}}
  csv    a header line, then one tick a line:
           metric,ts,tag:<key>...,field:<key>...,string:<key>...
         metric and ts once each, any number of tag:, field: and string: columns, in any order;
         e.g.
           metric,ts,tag:sensor,tag:segment,field:speed,field:travel_time,string:conditions
           traffic,2026-11-21T08:00:00Z,900006,I80_mile34,63,57,rain
         An empty cell leaves that tag, field or string out. Quote a cell holding a comma
         ("a,b"); a quoted cell cannot span lines.
  ts is milliseconds since the epoch or an ISO-8601 time with a zone (Z or +01:00).
  --input-format defaults to csv for a FILE ending in .csv, jsonl otherwise.

Ticks are keyed by series key, so a series always lands in one partition. A bad line (not a
tick, or one a worker would dead-letter) is reported on stderr with its line number and reason
and skipped; the command exits 1 at the end if there was any.

--dry-run checks every line as the workers would if it were published now (the schema, the
size limit, validation, and lateness against the workers' --max-lateness-ms and
--max-future-ms), reports each bad line the same way, publishes nothing, and exits 2 if there
was any bad line, 0 otherwise. A topic whose message.timestamp.type is not LogAppendTime is
warned of on stderr, with the command that fixes it.
`;

/**
 * Publishes ticks from JSON or CSV lines. Each line's problems are reported through `onBadLine`
 * as soon as they are found; nothing stops the run but an unusable input (a bad CSV header, an
 * unreadable file) or the broker.
 */
export async function publish(
  env: CliEnv,
  options: PublishOptions,
  logger: Logger,
  onBadLine: (line: number, reason: string) => void,
): Promise<PublishResult> {
  const started = Date.now();
  const { kafka, codec, clocksProblem } = await openTopicForPublishing(
    env,
    logger,
    'tickertape-publish',
    options.topic,
  );
  const producer = await TickProducer.connect(kafka, codec, {
    topic: options.topic,
    source: SOURCE,
  });
  const inFlight = new InFlight();
  const series = new Set<string>();
  let bad = 0;
  let firstFailure: string | undefined;
  const reportBad = (line: number, reason: string) => {
    bad += 1;
    onBadLine(line, reason);
  };

  try {
    for await (const line of readTickLines(options.input, options.format)) {
      if ('error' in line) {
        reportBad(line.number, line.error.message);
        continue;
      }
      const { number, tick } = line;
      const sent = producer.send(tick).then(
        () => {
          series.add(seriesKey(tick.metric, tick.tags));
        },
        (err: unknown) => {
          if (isTickRejected(err)) {
            reportBad(number, err.message);
          } else {
            firstFailure ??= `line ${number}: ${err instanceof Error ? err.message : String(err)}`;
          }
        },
      );
      inFlight.track(sent);
      if (inFlight.size >= MAX_PENDING) await inFlight.atMost(MAX_PENDING / 2);
    }
  } finally {
    await producer.close();
    await inFlight.atMost(0);
  }
  const stats = producer.stats;
  return {
    topic: options.topic,
    published: stats.sent,
    bad,
    failed: stats.failed,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    ...(clocksProblem === undefined ? {} : { clocksProblem }),
    series: series.size,
    batches: stats.batches,
    bytes: stats.bytes,
    elapsedMs: Date.now() - started,
  };
}

export function formatPublish(result: PublishResult): string {
  const kb = (result.bytes / 1024).toFixed(1);
  const lines = [
    `published ${plural(result.published, 'tick')} to ${result.topic} (${result.series} series, ` +
      `${plural(result.batches, 'batch', 'batches')}, ${kb} KiB) in ${formatDuration(result.elapsedMs)}`,
  ];
  if (result.bad > 0) lines.push(`${plural(result.bad, 'bad line')} skipped`);
  if (result.failed > 0) {
    lines.push(`${plural(result.failed, 'tick')} not acknowledged by the broker`);
  }
  return `${lines.join('\n')}\n`;
}
