import { lastMinutes, type Detail } from '@tickertape/query';
import { type Command, Option } from 'commander';
import { positiveInt, tagArgument } from '../../arguments.js';
import {
  candlesAnswer,
  pointsAnswer,
  rawAnswer,
  seriesAnswer,
  statusAnswer,
  windowAnswer,
} from '../../format/answers.js';
import { parseLastMinutes } from '../../format/time.js';

import {
  common,
  range,
  respond,
  timeRange,
  type CommonOptions,
  type QueryIo,
  type RangeOptions,
} from './shared.js';

export type { QueryIo } from './shared.js';

/** `tickertape query …`: the read library from the terminal. */
export function addQueryCommands(program: Command, io: QueryIo): void {
  const query = program
    .command('query')
    .description(
      'read the rollups (series, points, candles, window aggregates, status) and raw points',
    );

  common(
    timeRange(
      query
        .command('series')
        .description('series with data in a range, by metric and tags')
        .option('--metric <name>', 'only this metric')
        .option('--tag <key=value>', 'only series with this tag (repeatable)', tagArgument)
        .option('--limit <n>', 'series to list at most', positiveInt, 100),
      '-1d',
    ),
  ).action(
    async (
      options: CommonOptions &
        RangeOptions & { metric?: string; tag?: Record<string, string>; limit: number },
    ) => {
      const nowMs = io.now();
      const { fromMs, toMs } = range(options, nowMs);
      await respond(io, options, nowMs, async (reader) =>
        seriesAnswer(
          await reader.series({
            ...(options.metric === undefined ? {} : { metric: options.metric }),
            tags: options.tag ?? {},
            fromMs,
            toMs,
            limit: options.limit,
          }),
          { fromMs, toMs },
        ),
      );
    },
  );

  common(
    timeRange(
      query
        .command('points')
        .description('one field of one series over a range, at an automatic or chosen width')
        .requiredOption('--series <key>', 'series key, e.g. "traffic|sensor=s-001"')
        .requiredOption('--field <name>', 'numeric field')
        .addOption(
          new Option('--max-points <n>', 'at most this many points: the finest width that fits')
            .argParser(positiveInt)
            .default(120)
            .conflicts(['level', 'detail']),
        )
        .option('--level <level>', 'read this level instead: minute, hour or day')
        .addOption(
          new Option(
            '--detail <detail>',
            'with --level (default minute): slot = a point per bucket, sub = per second/minute/hour',
          ).choices(['slot', 'sub']),
        ),
      '-1h',
    ),
  ).action(
    async (
      options: CommonOptions &
        RangeOptions & {
          series: string;
          field: string;
          maxPoints: number;
          level?: string;
          detail?: Detail;
        },
    ) => {
      const nowMs = io.now();
      const base = { series: options.series, field: options.field, ...range(options, nowMs) };
      await respond(io, options, nowMs, async (reader) =>
        pointsAnswer(
          options.level === undefined && options.detail === undefined
            ? await reader.auto({ ...base, maxPoints: options.maxPoints })
            : await reader.range({
                ...base,
                level: options.level ?? 'minute',
                detail: options.detail ?? 'slot',
              }),
        ),
      );
    },
  );

  common(
    timeRange(
      query
        .command('candles')
        .description('open/high/low/close of one field of one series, at an automatic width')
        .requiredOption('--series <key>', 'series key, e.g. "stock.tick|symbol=AAPL"')
        .requiredOption('--field <name>', 'numeric field')
        .option('--max-points <n>', 'at most this many candles', positiveInt, 60),
      '-1h',
    ),
  ).action(
    async (
      options: CommonOptions & RangeOptions & { series: string; field: string; maxPoints: number },
    ) => {
      const nowMs = io.now();
      const { fromMs, toMs } = range(options, nowMs);
      await respond(io, options, nowMs, async (reader) =>
        candlesAnswer(
          await reader.candles({
            series: options.series,
            field: options.field,
            fromMs,
            toMs,
            maxPoints: options.maxPoints,
          }),
        ),
      );
    },
  );

  common(
    query
      .command('window')
      .description(
        'count, sum, avg, min, max, first and last of one field over a window, for many series',
      )
      .addOption(
        new Option('--series <keys...>', 'these series (repeatable)').conflicts(['metric', 'tag']),
      )
      .option('--metric <name>', 'or every series of this metric (up to --limit)')
      .option(
        '--tag <key=value>',
        'with --metric: only series with this tag (repeatable)',
        tagArgument,
      )
      .option('--limit <n>', 'with --metric: series to aggregate at most', positiveInt, 100)
      .requiredOption('--field <name>', 'numeric field')
      .addOption(
        new Option('--last <duration>', 'the last whole minutes up to now: 10m, 2h, 1d')
          .argParser(parseLastMinutes)
          .conflicts(['from', 'to']),
      )
      .option('--from <time>', 'or from this time (rounded down to the minute)')
      .option('--to <time>', 'with --from: to this time (default now)'),
  ).action(
    async (
      options: CommonOptions & {
        series?: string[];
        metric?: string;
        tag?: Record<string, string>;
        limit: number;
        field: string;
        last?: number;
        from?: string;
        to?: string;
      },
      command: Command,
    ) => {
      if (options.series === undefined && options.metric === undefined)
        command.error('error: name the series: --series KEY… or --metric NAME');
      if (options.last === undefined && options.from === undefined)
        command.error('error: give the window: --last 10m, or --from TIME [--to TIME]');
      const nowMs = io.now();
      const window =
        options.last !== undefined
          ? lastMinutes(nowMs, options.last)
          : range({ from: options.from!, to: options.to ?? 'now' }, nowMs);
      await respond(io, options, nowMs, async (reader) =>
        windowAnswer(
          options.metric === undefined
            ? await reader.window({ series: options.series ?? [], field: options.field, ...window })
            : await reader.windowByMetric({
                metric: options.metric,
                tags: options.tag ?? {},
                limit: options.limit,
                field: options.field,
                ...window,
              }),
        ),
      );
    },
  );

  common(
    timeRange(
      query
        .command('raw')
        .description(
          'the exact points of one series from the segment store, with the nearest point on each side of the range',
        )
        .requiredOption('--series <key>', 'series key, e.g. "traffic|sensor=s-001"')
        .option('--field <name>', 'only this numeric field (default: every field)'),
      '-1h',
    ),
  ).action(async (options: CommonOptions & RangeOptions & { series: string; field?: string }) => {
    const nowMs = io.now();
    const { fromMs, toMs } = range(options, nowMs);
    await respond(io, options, nowMs, async (reader) =>
      rawAnswer(
        await reader.rawPoints({
          series: options.series,
          fromMs,
          toMs,
          ...(options.field === undefined ? {} : { field: options.field }),
        }),
        options.field,
      ),
    );
  });

  common(
    query
      .command('status')
      .description("a series' newest bucket, freshness and finality at every level")
      .requiredOption('--series <key>', 'series key'),
  ).action(async (options: CommonOptions & { series: string }) => {
    await respond(io, options, io.now(), async (reader) =>
      statusAnswer(await reader.status(options.series)),
    );
  });
}
