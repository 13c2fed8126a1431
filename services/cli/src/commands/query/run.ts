import { LEVELS } from '@tickertape/buckets';
import {
  checkTimeZone,
  fillRange,
  lastMinutes,
  TIME_DEFAULTS,
  windowInZone,
  type Detail,
  type FillMode,
} from '@tickertape/query';
import {
  candlesAnswer,
  pointsAnswer,
  rawAnswer,
  seriesAnswer,
  statusAnswer,
  windowAnswer,
} from '../../format/answers.js';
import { quantilesPart } from '../../format/stats.js';
import { range, respond, type CommonOptions, type QueryIo, type RangeOptions } from './shared.js';

export type { QueryIo } from './shared.js';

/* `tickertape query …`: the read library from the terminal, one function per subcommand. */

export type SeriesOptions = CommonOptions &
  RangeOptions & { metric?: string; tag?: Record<string, string>; limit: number };

export async function querySeries(io: QueryIo, options: SeriesOptions): Promise<void> {
  const nowMs = io.now();
  const { fromMs, toMs } = range(options, nowMs, undefined, TIME_DEFAULTS.seriesSpanMs);
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
}

export type PointsOptions = CommonOptions &
  RangeOptions & {
    series: string;
    field: string;
    maxPoints: number;
    level?: string;
    detail?: Detail;
    tz?: string;
    fill?: FillMode;
    quantile?: string[];
  };

/** `--tz`: checked before any connection, so an unknown zone exits 2 at once. */
const zoneOf = (tz: string | undefined): { tz?: string } =>
  tz === undefined ? {} : { tz: checkTimeZone(tz) };

export async function queryPoints(io: QueryIo, options: PointsOptions): Promise<void> {
  const nowMs = io.now();
  const zone = zoneOf(options.tz);
  const base = {
    series: options.series,
    field: options.field,
    ...range(options, nowMs, zone.tz),
    ...zone,
    ...quantilesPart(options.quantile),
  };
  await respond(io, options, nowMs, async (reader) => {
    const result =
      options.level === undefined && options.detail === undefined
        ? await reader.auto({ ...base, maxPoints: options.maxPoints })
        : await reader.range({
            ...base,
            level: options.level ?? LEVELS[0],
            detail: options.detail ?? 'slot',
          });
    return pointsAnswer(
      options.fill === undefined ? result : fillRange(result, options.fill, nowMs),
    );
  });
}

export type CandlesOptions = CommonOptions &
  RangeOptions & {
    series: string;
    field: string;
    maxPoints: number;
    tz?: string;
    quantile?: string[];
  };

export async function queryCandles(io: QueryIo, options: CandlesOptions): Promise<void> {
  const nowMs = io.now();
  const zone = zoneOf(options.tz);
  const { fromMs, toMs } = range(options, nowMs, zone.tz);
  const quantiles = quantilesPart(options.quantile);
  await respond(io, options, nowMs, async (reader) =>
    candlesAnswer(
      await reader.candles({
        series: options.series,
        field: options.field,
        fromMs,
        toMs,
        maxPoints: options.maxPoints,
        ...zone,
        ...quantiles,
      }),
    ),
  );
}

export type WindowOptions = CommonOptions & {
  series?: string[];
  metric?: string;
  tag?: Record<string, string>;
  limit: number;
  field: string;
  last?: number;
  from?: string;
  to?: string;
  tz?: string;
  quantile?: string[];
};

/** Called with the series named (--series or --metric); the window is --last, or --from/--to. */
export async function queryWindow(io: QueryIo, options: WindowOptions): Promise<void> {
  const nowMs = io.now();
  const { tz } = zoneOf(options.tz);
  const window =
    options.last !== undefined ? lastMinutes(nowMs, options.last) : range(options, nowMs, tz);
  const quantiles = quantilesPart(options.quantile);
  await respond(io, options, nowMs, async (reader) => {
    const result =
      options.metric === undefined
        ? await reader.window({
            series: options.series ?? [],
            field: options.field,
            ...window,
            ...quantiles,
          })
        : await reader.windowByMetric({
            metric: options.metric,
            tags: options.tag ?? {},
            limit: options.limit,
            field: options.field,
            ...window,
            ...quantiles,
          });
    return windowAnswer(tz === undefined ? result : windowInZone(result, tz));
  });
}

export type RawOptions = CommonOptions & RangeOptions & { series: string; field?: string };

export async function queryRaw(io: QueryIo, options: RawOptions): Promise<void> {
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
}

export async function queryStatus(
  io: QueryIo,
  options: CommonOptions & { series: string },
): Promise<void> {
  await respond(io, options, io.now(), async (reader) =>
    statusAnswer(await reader.status(options.series)),
  );
}
