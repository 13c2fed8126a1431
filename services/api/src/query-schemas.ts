import { z } from 'zod';
import { FORMATS } from '@tickertape/answers';
import { LEVELS } from '@tickertape/buckets';
import {
  DEFAULT_MAX_POINTS,
  isBadQuery,
  LAST_FORMS,
  parseAbsoluteTime,
  parseLastArgument,
  parseTagArgument,
  TAG_FORMS,
  TIME_DEFAULTS,
  TIME_FORMS,
} from '@tickertape/query';
import { fillParam, timeZoneParam } from './zone-params.js';

/**
 * The query strings of the read routes. They check shape and syntax only; what a value means
 * (a known level, a valid series key, a range the budget allows) is the reader's to judge, so
 * the API and the CLI refuse the same requests with the same codes.
 */

export const SERIES_LIMIT_DEFAULT = 100;
export const SERIES_LIMIT_MAX = 1000;

/** A parameter given once; a repeated one arrives as an array. */
const single = () =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'is required' : 'give it once (it is not repeatable)',
    })
    .min(1, 'must not be empty');

/** A repeatable parameter: `?series=a&series=b`; one occurrence arrives as a plain string. */
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z.array(item, { error: (issue) => (issue.input === undefined ? 'is required' : undefined) }),
  );

const EXAMPLE_INSTANTS = ['2026-11-21T10:00:00Z', '-1h', 'now-15m', '1795255200000'];
/**
 * A superset of what the routes read (parseTimeArgument, in their hook): generators of requests
 * (schemathesis) then try times, not any text, and whatever the pattern refuses the route refuses
 * too.
 */
const INSTANT_PATTERN = String.raw`^(\d{1,16}|\d{4}-\d{2}-\d{2}([Tt]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?|([Nn][Oo][Ww])?([+-](\d+(\.\d+)?(ms|[smhdw]))+)?)$`;

/**
 * A time as the routes' preValidation hook (time-params.ts) leaves it. The hook reads every form
 * the CLI reads for `--from`/`--to` — relative ones (`-15m`, `now-1h`) on the request's one clock
 * reading, wall times in `tz` — and writes RFC 3339; what it cannot read arrives as given. So the
 * schema reads fixed instants only (parseAbsoluteTime) and never the clock: it refuses the rest,
 * naming the parameter, with the forms the route accepts.
 */
const instant = (description: string) =>
  single()
    .transform((text, ctx) => {
      try {
        return parseAbsoluteTime(text);
      } catch (err) {
        if (!isBadQuery(err)) throw err;
        ctx.issues.push({ code: 'custom', input: text, message: err.message });
        return z.NEVER;
      }
    })
    .meta({
      description: `${description}. ${TIME_FORMS}`,
      examples: EXAMPLE_INSTANTS,
      pattern: INSTANT_PATTERN,
    });

const positiveInt = () =>
  z.coerce
    .number({ error: (issue) => (issue.code === 'invalid_type' ? 'must be a number' : undefined) })
    .int('must be a whole number')
    .min(1);

const seriesKey = () =>
  single().meta({
    description: 'Series key: `metric|tag=value,…` with tags sorted, as /api/v1/series lists it',
    examples: ['speed|sensor=s1'],
  });

const fieldName = () =>
  single().meta({ description: 'Numeric field of the ticks', examples: ['speed', 'price'] });

/** `tag=key=value` (or `key:value`), repeatable, as the CLI's `--tag`; every tag must match. */
const tagFilter = () =>
  repeated(z.string())
    .transform((pairs, ctx) => {
      let tags: Record<string, string> = {};
      for (const pair of pairs) {
        try {
          tags = parseTagArgument(pair, tags);
        } catch (err) {
          if (!isBadQuery(err)) throw err;
          ctx.issues.push({ code: 'custom', input: pair, message: err.message });
        }
      }
      return tags;
    })
    .meta({
      description: `Tag filter: ${TAG_FORMS}; every tag must match`,
      examples: ['sensor=s1'],
    });

/**
 * `quantile=0.5,0.85,0.99` (or repeated): each φ in [0, 1]. The values come in `quantiles`,
 * keyed `q<φ>` (`q0.85`), and as one CSV/Arrow column each, named the same.
 */
const quantileList = () =>
  repeated(z.string())
    .transform((items, ctx) => {
      const phis: number[] = [];
      for (const text of items.flatMap((item) => item.split(','))) {
        const phi = text.trim() === '' ? Number.NaN : Number(text);
        if (phi >= 0 && phi <= 1) phis.push(phi);
        else
          ctx.issues.push({
            code: 'custom',
            input: text,
            message: `${JSON.stringify(text.slice(0, 32))} is not a quantile: give each φ in [0, 1], e.g. 0.5,0.85,0.99`,
          });
      }
      return phis;
    })
    .optional()
    .meta({
      description:
        'Quantiles of the values, φ in [0, 1], comma-separated or repeated (e.g. 0.5,0.85,0.99): `quantiles.q0.85` in JSON, a `q0.85` column in CSV and Arrow. From the metric’s quantile sketches (level policy `--sketch`), within 1 % of the value at each rank; `coverage.sketch` says how many ticks they cover',
      examples: ['0.85', '0.5,0.95,0.99'],
    });

/** The answer's format; it wins over the Accept header (docs/analysts.md). */
const format = () =>
  z
    .enum(FORMATS, { error: () => 'must be csv, arrow or json, given once' })
    .optional()
    .meta({
      description:
        'csv (RFC 4180, a header row), arrow (an Apache Arrow IPC stream) or json (the default); instead of Accept: text/csv or application/vnd.apache.arrow.stream',
      examples: ['csv'],
    });

const optionalTo = () =>
  instant(`End of the range, exclusive. Default: ${TIME_DEFAULTS.to}`).optional();
const optionalFrom = (what = 'the range') =>
  instant(`Start of ${what}, inclusive. Default: an hour before \`to\` (-1h)`).optional();

export const seriesQuerySchema = z.strictObject({
  metric: single().optional().meta({ description: 'Only series of this metric' }),
  tag: tagFilter().optional(),
  from: instant('Start of the range, inclusive. Default: a week before `to` (-7d)').optional(),
  to: optionalTo(),
  limit: positiveInt()
    .max(SERIES_LIMIT_MAX)
    .default(SERIES_LIMIT_DEFAULT)
    .meta({ description: 'Most series returned' }),
  format: format(),
});

/** One series, one field, a range, and how many points at most: what points and candles share. */
const rangeRead = {
  series: seriesKey(),
  field: fieldName(),
  from: optionalFrom(),
  to: optionalTo(),
  maxPoints: positiveInt()
    .optional()
    .meta({
      description: `Automatic resolution: the finest width that fits this many points (default ${DEFAULT_MAX_POINTS}; capped by the server's MAX_POINTS)`,
    }),
  tz: timeZoneParam(),
  quantile: quantileList(),
};

export const pointsQuerySchema = z
  .strictObject({
    ...rangeRead,
    level: single()
      .optional()
      .meta({
        description: 'Explicit level read instead of automatic resolution',
        examples: [...LEVELS],
      }),
    detail: z.enum(['slot', 'sub']).optional().meta({
      description:
        'With `level`: `slot` (default) one point per bucket, `sub` one per second/minute/hour inside each',
    }),
    fill: fillParam(),
    format: format(),
  })
  .check((ctx) => {
    const { level, detail, maxPoints } = ctx.value;
    if (level === undefined && detail !== undefined)
      ctx.issues.push({
        code: 'custom',
        input: detail,
        path: ['detail'],
        message: `applies only with level=${LEVELS.join('|')}`,
      });
    if (level !== undefined && maxPoints !== undefined)
      ctx.issues.push({
        code: 'custom',
        input: maxPoints,
        path: ['maxPoints'],
        message: 'applies only without level: an explicit level fixes the width',
      });
  });

export const candlesQuerySchema = z.strictObject({ ...rangeRead, format: format() });

export const windowQuerySchema = z
  .strictObject({
    series: repeated(single())
      .optional()
      .meta({
        description:
          'Series keys; repeat for several (up to the server’s MAX_SERIES). Or select them with `metric`',
        examples: [['speed|sensor=s1', 'speed|sensor=s2']],
      }),
    metric: single()
      .optional()
      .meta({
        description:
          "Instead of `series`: the series of this metric with data in the window's buckets (with `tag`; the first `limit` by key)",
        examples: ['traffic'],
      }),
    tag: tagFilter().optional(),
    limit: positiveInt()
      .max(SERIES_LIMIT_MAX)
      .optional()
      .meta({
        description: `With \`metric\`: most series summed (default ${SERIES_LIMIT_DEFAULT})`,
      }),
    field: fieldName(),
    from: optionalFrom('the window (rounded down to a whole minute)'),
    to: instant(
      `End of the window, exclusive (rounded up to a whole minute). Default: ${TIME_DEFAULTS.to}`,
    ).optional(),
    last: single()
      .transform((text, ctx) => {
        try {
          return parseLastArgument(text);
        } catch (err) {
          if (!isBadQuery(err)) throw err;
          ctx.issues.push({ code: 'custom', input: text, message: err.message });
          return z.NEVER;
        }
      })
      .optional()
      .meta({
        description: `Instead of from/to: the last whole minutes up to and including the current one; ${LAST_FORMS}`,
        examples: ['10m', '1h30m'],
      }),
    tz: timeZoneParam(),
    quantile: quantileList(),
    format: format(),
  })
  .check((ctx) => {
    const { series, metric, tag, limit } = ctx.value;
    if ((series === undefined) === (metric === undefined))
      ctx.issues.push({
        code: 'custom',
        input: metric,
        path: ['series'],
        message:
          'name the series: give either series (repeatable) or metric (with tag, limit), not both',
      });
    for (const [name, value] of [
      ['tag', tag],
      ['limit', limit],
    ] as const)
      if (value !== undefined && metric === undefined)
        ctx.issues.push({
          code: 'custom',
          input: value,
          path: [name],
          message: 'applies only with metric',
        });
  })
  .check((ctx) => {
    const { from, to, last } = ctx.value;
    if (last !== undefined && (from !== undefined || to !== undefined))
      ctx.issues.push({
        code: 'custom',
        input: last,
        path: ['last'],
        message: 'give either last or from/to, not both',
      });
  });

export const statusQuerySchema = z.strictObject({ series: seriesKey() });

/**
 * Raw points: no width to choose and no maxPoints — the segment store returns every point in
 * the range, and the reader refuses a range holding more segments than the read budget.
 */
export const rawQuerySchema = z.strictObject({
  series: seriesKey(),
  from: optionalFrom(),
  to: optionalTo(),
  field: single()
    .optional()
    .meta({
      description: 'Only this field’s values; every numeric field of the ticks when absent',
      examples: ['speed', 'price'],
    }),
  format: format(),
});

export type SeriesQueryParams = z.output<typeof seriesQuerySchema>;
export type PointsQueryParams = z.output<typeof pointsQuerySchema>;
export type CandlesQueryParams = z.output<typeof candlesQuerySchema>;
export type WindowQueryParams = z.output<typeof windowQuerySchema>;
export type RawQueryParams = z.output<typeof rawQuerySchema>;
