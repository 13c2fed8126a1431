import { DEFAULT_MAX_POINTS, TIME_DEFAULTS } from '@tickertape/query';
import { Option } from 'commander';
import { positiveInt, tagArgument } from '../../arguments.js';
import { quantileArgument } from '../../format/stats.js';
import { parseLastMinutes } from '../../format/time.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../context.js';
import {
  queryCandles,
  queryPoints,
  queryRaw,
  querySeries,
  queryStatus,
  queryWindow,
  type CandlesOptions,
  type PointsOptions,
  type RawOptions,
  type SeriesOptions,
  type WindowOptions,
} from './run.js';
import { fillOption, tzOption } from './local-options.js';
import {
  commonOptions,
  QUERY_HELP,
  rangeOptions,
  type CommonOptions,
  type QueryIo,
} from './shared.js';

/** `--quantile`, on the reads whose points, candles or rows have values to rank. */
const quantileOption = (what: string) =>
  new Option(
    '--quantile <phi>',
    `quantile φ in [0, 1] of ${what} (repeatable, or a comma list: 0.5,0.85,0.99); a q<φ> column each`,
  ).argParser(quantileArgument);

function queryIo({ ready, now, io }: CommandContext): QueryIo {
  return { ready, now, stdout: io.stdout, stderr: io.stderr };
}

const seriesDefinition = defineCommand({
  name: 'series',
  summary: 'series with data in a range, by metric and tags',
  options: [
    new Option('--metric <name>', 'only this metric'),
    new Option('--tag <key=value>', 'only series with this tag (repeatable)').argParser(
      tagArgument,
    ),
    new Option('--limit <n>', 'series to list at most').argParser(positiveInt).default(100),
    ...rangeOptions('a week'),
    ...commonOptions(),
  ],
  help: QUERY_HELP,
  run: (ctx, options: SeriesOptions) => querySeries(queryIo(ctx), options),
});

const pointsDefinition = defineCommand({
  name: 'points',
  summary: 'one field of one series over a range, at an automatic or chosen width',
  options: [
    new Option('--series <key>', 'series key, e.g. "traffic|sensor=s-001"').makeOptionMandatory(),
    new Option('--field <name>', 'numeric field').makeOptionMandatory(),
    new Option('--max-points <n>', 'at most this many points: the finest width that fits')
      .argParser(positiveInt)
      .default(DEFAULT_MAX_POINTS)
      .conflicts(['level', 'detail']),
    new Option('--level <level>', 'read this level instead: minute, hour or day'),
    new Option(
      '--detail <detail>',
      'with --level (default minute): slot = a point per bucket, sub = per second/minute/hour',
    ).choices(['slot', 'sub']),
    tzOption(),
    fillOption(),
    quantileOption("each point's values"),
    ...rangeOptions(),
    ...commonOptions(),
  ],
  help: QUERY_HELP,
  run: (ctx, options: PointsOptions) => queryPoints(queryIo(ctx), options),
});

const candlesDefinition = defineCommand({
  name: 'candles',
  summary: 'open/high/low/close of one field of one series, at an automatic width',
  options: [
    new Option('--series <key>', 'series key, e.g. "stock.tick|symbol=AAPL"').makeOptionMandatory(),
    new Option('--field <name>', 'numeric field').makeOptionMandatory(),
    new Option('--max-points <n>', 'at most this many candles')
      .argParser(positiveInt)
      .default(DEFAULT_MAX_POINTS),
    tzOption(),
    quantileOption("each candle's values"),
    ...rangeOptions(),
    ...commonOptions(),
  ],
  help: QUERY_HELP,
  run: (ctx, options: CandlesOptions) => queryCandles(queryIo(ctx), options),
});

const windowDefinition = defineCommand({
  name: 'window',
  summary:
    'count, sum, avg, min, max, first, last, spread and quantiles of one field over a window, for many series',
  options: [
    new Option('--series <keys...>', 'these series (repeatable)').conflicts(['metric', 'tag']),
    new Option('--metric <name>', 'or every series of this metric (up to --limit)'),
    new Option(
      '--tag <key=value>',
      'with --metric: only series with this tag (repeatable)',
    ).argParser(tagArgument),
    new Option('--limit <n>', 'with --metric: series to aggregate at most')
      .argParser(positiveInt)
      .default(100),
    new Option('--field <name>', 'numeric field').makeOptionMandatory(),
    new Option('--last <duration>', 'the last whole minutes up to now: 10m, 2h, 1d')
      .argParser(parseLastMinutes)
      .conflicts(['from', 'to']),
    new Option(
      '--from <time>',
      'or from this time, rounded down to the minute (default: an hour before --to)',
    ),
    new Option(
      '--to <time>',
      `to this time, rounded up to the minute (default ${TIME_DEFAULTS.to})`,
    ),
    tzOption(),
    quantileOption("each series' values over the window"),
    ...commonOptions(),
  ],
  help: QUERY_HELP,
  async run(ctx, options: WindowOptions) {
    if (options.series === undefined && options.metric === undefined)
      ctx.usage('name the series: --series KEY… or --metric NAME');
    await queryWindow(queryIo(ctx), options);
  },
});

const rawDefinition = defineCommand({
  name: 'raw',
  summary:
    'the exact points of one series from the segment store, with the nearest point on each side of the range',
  options: [
    new Option('--series <key>', 'series key, e.g. "traffic|sensor=s-001"').makeOptionMandatory(),
    new Option('--field <name>', 'only this numeric field (default: every field)'),
    ...rangeOptions(),
    ...commonOptions(),
  ],
  help: QUERY_HELP,
  run: (ctx, options: RawOptions) => queryRaw(queryIo(ctx), options),
});

const statusDefinition = defineCommand({
  name: 'status',
  summary: "a series' newest bucket, freshness and finality at every level",
  options: [new Option('--series <key>', 'series key').makeOptionMandatory(), ...commonOptions()],
  help: QUERY_HELP,
  run: (ctx, options: CommonOptions & { series: string }) => queryStatus(queryIo(ctx), options),
});

/** `tickertape query …`: the read library from the terminal. */
export const queryDefinition = defineCommand({
  name: 'query',
  summary: 'read the rollups (series, points, candles, window aggregates, status) and raw points',
  subcommands: [
    seriesDefinition,
    pointsDefinition,
    candlesDefinition,
    windowDefinition,
    rawDefinition,
    statusDefinition,
  ],
});
