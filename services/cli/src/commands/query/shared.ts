import type { Logger } from '@tickertape/logger';
import { defaultRange, RollupReader, TAG_FORMS, TIME_DEFAULTS } from '@tickertape/query';
import { Option } from 'commander';
import { openStores } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { render, type QueryAnswer } from '../../format/render.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { parseInstant, TIME_HELP } from '../../format/time.js';

/* What every `tickertape query` subcommand shares: its io, options, help and answering. */

/** What the query commands need from the program: see CliIo and buildProgram. */
export interface QueryIo {
  ready: () => { env: CliEnv; logger: Logger };
  now: () => number;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface CommonOptions {
  format: OutputFormat;
  database: string;
}

export interface RangeOptions {
  from?: string;
  to?: string;
}

export const QUERY_HELP = `
Times (--from, --to): ${TIME_HELP}.
Tags (--tag): ${TAG_FORMS}.
Output: --format table (default; notes under the table), csv (the API's format=csv, byte for
byte: RFC 4180, a header row; the notes, documents examined included, go to stderr), json (the
query library's result; "examined" is the cost).
Missing data is an empty cell or a gap, never 0.
Exit codes: 0 answered; 2 the query was refused (bad time or range, unknown level, too many
series or points, over the read budget, a bad flag): fix the query; 3 the database did not
answer (MONGODB_URI named): try again later; 1 anything else failed.
`;

/**
 * Opens the database, answers with the reader, closes, prints. Callers parse their times first,
 * so an unreadable time is refused before any connection; one clock reading serves the query.
 */
export async function respond(
  io: QueryIo,
  options: CommonOptions,
  nowMs: number,
  work: (reader: RollupReader) => Promise<QueryAnswer>,
): Promise<void> {
  const { env, logger } = io.ready();
  const stores = await openStores(env, logger, 'tickertape-query', options.database);
  let result: QueryAnswer;
  try {
    result = await work(new RollupReader(stores, { now: () => nowMs }));
  } finally {
    await stores.close();
  }
  const output = render(options.format, result);
  io.stdout(output.stdout);
  if (output.stderr !== '') io.stderr(output.stderr);
}

/**
 * `--from`/`--to` as the API reads `from`/`to` (a time without an offset in `tz`, else UTC),
 * each defaulted as the API defaults it: `--to` now, `--from` `spanMs` before `--to`.
 */
export function range(
  options: RangeOptions,
  nowMs: number,
  tz?: string,
  spanMs: number = TIME_DEFAULTS.spanMs,
): { fromMs: number; toMs: number } {
  const read = (text: string | undefined, option: string) =>
    text === undefined ? undefined : parseInstant(text, nowMs, option, tz);
  return defaultRange(read(options.from, '--from'), read(options.to, '--to'), nowMs, spanMs);
}

/** The flags every query subcommand ends with (its own come first). */
export function commonOptions(): Option[] {
  return [
    ...formatOptions(['table', 'csv', 'json']),
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
  ];
}

/** `--from` and `--to` of a range, with the API's defaults (`range` applies them). */
export function rangeOptions(span: 'an hour' | 'a week' = 'an hour'): Option[] {
  return [
    new Option('--from <time>', `start of the range, inclusive (default: ${span} before --to)`),
    new Option('--to <time>', `end of the range, exclusive (default: ${TIME_DEFAULTS.to})`),
  ];
}
