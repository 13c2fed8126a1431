import { LEVELS } from '@tickertape/buckets';
import { FILL_MODES } from '@tickertape/query';
import { z } from 'zod';
import { MEDIA_TYPES } from './formats/answer-format.js';

/**
 * What the routes answer, mirroring the reader's result types. They document the answers in
 * /openapi.json and, being what JSON answers are encoded by (the serializer's, and a read
 * route's JSON encoder's: formats/represent.ts), let nothing the reader adds later leak out
 * unannounced.
 */

const epochMs = (description: string) => z.number().int().meta({ description });
const level = z.enum(LEVELS);
const examined = z.number().int().meta({ description: 'Bucket documents read to answer' });

export const errorSchema = z.object({
  error: z.string().meta({
    description:
      'unauthorized, invalid_request, not_found, method_not_allowed, internal_error, or a QUERY_* code of the reader',
  }),
  message: z.string(),
  requestId: z.string().optional(),
});

/** With `tz`: each step's UTC end and its start in the zone's wall time. */
const localStep = {
  end: epochMs(
    'With tz: end of the local step, exclusive (a local day lasts 23 to 25 hours)',
  ).optional(),
  local: z
    .string()
    .optional()
    .meta({
      description: 'With tz: the step’s start in the zone’s wall time, with its offset',
      examples: ['2026-03-08T00:00:00.000-08:00'],
    }),
};

/** A value of a point: null only in a step filled with nulls (`fill=null`). */
const pointValue = () => z.number().nullable();

/**
 * The stats every point, candle and window row carries (@tickertape/query's `Stats`): a stat is
 * computed over the ticks whose stored parts carry it, and `coverage` says how many of the `n`
 * that is — never a guess for the rest (old buckets, compact sub-slots of several ticks,
 * metrics not sketched or weighted). A stat nothing covers is null.
 */
const statsFields = {
  variance: z.number().nullable().meta({
    description:
      'Population variance (Σx²/n − mean², as stdvar_over_time) over `coverage.spread` ticks; null when none',
  }),
  stddev: z.number().nullable().meta({ description: 'Square root of `variance`' }),
  quantiles: z
    .record(z.string(), z.number().nullable())
    .optional()
    .meta({
      description:
        'With `quantile`: one value per φ, keyed `q<φ>` (`q0.85`), from the merged quantile sketches over `coverage.sketch` ticks, each within 1 % (relative) of the value at its rank; null when none',
      examples: [{ 'q0.5': 61.2, 'q0.85': 67.9 }],
    }),
  weighted: z
    .object({
      by: z.string().meta({ description: 'The weight field (the level policy’s)' }),
      avg: z.number().nullable().meta({
        description: 'Σ(x·w)/Σw over `coverage.weighted` ticks (VWAP for price by volume)',
      }),
    })
    .optional()
    .meta({ description: 'For a field the level policy weights: its weighted average' }),
  coverage: z
    .object({
      spread: z.number().meta({ description: 'Ticks behind variance and stddev' }),
      sketch: z
        .number()
        .optional()
        .meta({ description: 'With `quantile`: ticks behind the quantiles' }),
      weighted: z
        .number()
        .optional()
        .meta({ description: 'For a weighted field: ticks behind the weighted average' }),
    })
    .meta({
      description: 'How many of the `n` ticks each stat is computed over: n when all, 0 when none',
    }),
};

const pointSchema = z.object({
  t: epochMs('Start of the point’s interval'),
  ...localStep,
  n: z.number().nullable().meta({
    description:
      'Observations; null for seconds of minute buckets of the old layout, and in filled steps',
  }),
  sum: z.number().nullable(),
  min: pointValue(),
  max: pointValue(),
  open: pointValue(),
  close: pointValue(),
  avg: pointValue(),
  ...statsFields,
  final: z.boolean().meta({ description: 'Every slot behind the point is final' }),
  filled: z.boolean().optional().meta({
    description:
      'With fill: true for a step without data, answered by the fill (never a tick); false for data',
  }),
});

const gapSchema = z.object({
  from: epochMs('First instant without data'),
  to: epochMs('Data again, or range end'),
});

const resolutionSchema = z.object({
  stepMs: z.number().int(),
  source: z.object({ level, detail: z.enum(['slot', 'sub']) }),
});

const rangeHead = {
  series: z.string(),
  field: z.string(),
  fromMs: epochMs('Start of the range'),
  toMs: epochMs('End of the range, exclusive'),
  resolution: resolutionSchema,
  tz: z.string().optional().meta({ description: 'With tz: the zone whose local steps these are' }),
  gaps: z.array(gapSchema),
  examined,
};

export const pointsSchema = z.object({
  ...rangeHead,
  fill: z
    .enum(FILL_MODES)
    .optional()
    .meta({ description: 'With fill: how the steps without data were filled' }),
  points: z.array(pointSchema),
});

const candleSchema = z.object({
  t: epochMs('Start of the candle'),
  ...localStep,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number().nullable().meta({
    description: 'Ticks in the candle; null only for seconds of old-layout minute buckets',
  }),
  ...statsFields,
  final: z.boolean(),
});

export const candlesSchema = z.object({ ...rangeHead, candles: z.array(candleSchema) });

const markSchema = z.object({ t: z.number(), v: z.number() }).nullable();

const windowRowSchema = z.object({
  series: z.string(),
  n: z.number(),
  sum: z.number(),
  avg: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  first: markSchema,
  last: markSchema,
  ...statsFields,
  final: z.boolean(),
});

export const windowSchema = z.object({
  field: z.string(),
  fromMs: epochMs('Start of the window summed (rounded out to whole minutes)'),
  toMs: epochMs('End of the window summed'),
  tz: z.string().optional().meta({ description: 'With tz: the zone named' }),
  local: z
    .object({ from: z.string(), to: z.string() })
    .optional()
    .meta({ description: 'With tz: fromMs and toMs in the zone’s wall time, with their offsets' }),
  rows: z.array(windowRowSchema),
  pieces: z.array(
    z.object({
      level,
      start: epochMs('Slot start of the bucket read'),
      sub: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
    }),
  ),
  examined: examined.meta({
    description:
      "Documents read; with `metric`, the series are found in the window's own buckets, so no discovery read is added",
  }),
  selected: z
    .object({
      metric: z.string(),
      tags: z.record(z.string(), z.string()),
      series: z.number().int().meta({
        description: "Series summed: the first `limit` by key with data in the window's buckets",
      }),
      truncated: z.boolean().meta({ description: 'More series matched than the limit' }),
    })
    .optional()
    .meta({ description: 'With `metric`: how the series were selected' }),
});

export const seriesListSchema = z.object({
  series: z.array(
    z.object({
      series: z.string(),
      metric: z.string(),
      tags: z.record(z.string(), z.string()),
      fields: z.array(z.string()),
      lastSlotMs: epochMs('Slot start of the newest bucket seen'),
    }),
  ),
  level: level.meta({ description: 'The level scanned' }),
  examined,
  truncated: z.boolean().meta({ description: 'More series matched, or the scan hit the budget' }),
});

const lag = z
  .number()
  .int()
  .nullable()
  .meta({ description: 'Records the level’s consumer group has not committed; null if unknown' });
const finalBefore = epochMs('Every slot ending at or before this is final').nullable();

export const statusSchema = z.object({
  series: z.string(),
  levels: z.array(
    z.object({
      level,
      latestSlotMs: z.number().int().nullable(),
      freshnessMs: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'Event time of the newest tick applied' }),
      latestFinal: z.boolean(),
      finalBefore,
      lag,
    }),
  ),
  examined,
});

const rawPointSchema = z.object({
  t: epochMs('Event time of the tick'),
  v: z
    .record(z.string(), z.number())
    .meta({ description: 'The tick’s numeric fields (only `field` when one was asked for)' }),
});

export const rawSchema = z.object({
  series: z.string(),
  fromMs: epochMs('Start of the range'),
  toMs: epochMs('End of the range, exclusive'),
  points: z.array(rawPointSchema).meta({
    description: 'Every stored point with fromMs ≤ t < toMs, in time order, exactly as ticked',
  }),
  before: rawPointSchema.nullable().meta({
    description:
      'The nearest stored point before fromMs, so a chart’s line reaches the left edge; null if none is kept',
  }),
  after: rawPointSchema.nullable().meta({
    description: 'The nearest stored point at or after toMs; null if none (yet)',
  }),
  examined: z.number().int().meta({ description: 'Segment documents read to answer' }),
});

export const levelsSchema = z.object({
  levels: z.array(
    z.object({
      level,
      finalBefore,
      lag,
      /** The level policy: metrics this level skips, and those it keeps compact (docs/data-layout.md). */
      skips: z.array(z.string()),
      compact: z.array(z.string()),
      pinned: z.array(z.string()).meta({
        description:
          'Metrics the operator keeps at this level, which the automatic skip leaves alone (`tickertape levels keep minute`; `levels auto minute` hands one back); only the minute level has such a rule',
      }),
    }),
  ),
  /** Metrics whose fields keep quantile sketches, at every level (`tickertape levels sketch`). */
  sketches: z.array(z.string()),
  /** Sketched metrics whose quantiles are kept at an α other than 1 % (`levels sketch --alpha`). */
  sketchAlpha: z.array(z.object({ metric: z.string(), alpha: z.number() })),
  /** Fields kept with a weighted average, at every level (`tickertape levels weight`). */
  weights: z.array(z.object({ metric: z.string(), field: z.string(), by: z.string() })),
  /**
   * Spans of slots the minute level skips a sparse metric for by itself (the scheduler's
   * `auto-skip` job; `until` null while open). Reads take such a metric from the hour level.
   */
  autoSkips: z.array(
    z.object({ level, metric: z.string(), from: z.string(), until: z.string().nullable() }),
  ),
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  message: z.string().optional(),
});

/**
 * The 200 of a read route: its JSON, or the same rows as CSV or an Arrow IPC stream (`format=`
 * or Accept; docs/analysts.md lists the columns). Every format is encoded by the route
 * (@tickertape/answers' encoders) and sent as it is.
 */
export function tabularAnswer<T extends z.ZodType>(json: T, rows: string) {
  return {
    description: `The answer; as CSV or Arrow, ${rows}`,
    content: {
      [MEDIA_TYPES.json]: { schema: json },
      [MEDIA_TYPES.csv]: {
        schema: z.string().meta({
          description: `RFC 4180 CSV with a header row, ${rows} (columns: docs/analysts.md)`,
        }),
      },
      [MEDIA_TYPES.arrow]: {
        schema: z.string().meta({
          format: 'binary',
          description: `An Apache Arrow IPC stream of the same columns, ${rows}`,
        }),
      },
    },
  } as const;
}

/** The descriptions of the answers without a body, by the schema that stands for them. */
const EMPTY_ANSWERS = new WeakMap<z.ZodType, string>();

/**
 * An answer without a body (204, 304). The route keeps a zod schema (Fastify compiles a
 * serializer for every declared status); /openapi.json says it has no content, which a zod schema
 * cannot say (`z.null()` came out as a JSON body, and schemathesis held /token's 204 to it).
 */
export function noContent(description: string): z.ZodNull {
  const schema = z.null();
  EMPTY_ANSWERS.set(schema, description);
  return schema;
}

/** The description of an answer `noContent` made, or undefined for one with a body. */
export function emptyAnswer(schema: unknown): string | undefined {
  return schema instanceof z.ZodType ? EMPTY_ANSWERS.get(schema) : undefined;
}

/** A conditional GET's answer when If-None-Match names the answer's ETag (@fastify/etag). */
export const notModified = noContent('Not Modified: If-None-Match names this answer’s ETag');

/** The error answers every /api route may give, next to its 200. */
export const unscopedErrors = { 400: errorSchema, 401: errorSchema, 500: errorSchema } as const;

/** A read's: 403 too, for a series or metric outside the token's scope (token-scope.ts). */
export const apiErrors = { ...unscopedErrors, 403: errorSchema } as const;

/** A read past API_READ_TIMEOUT_MS (request-reads.ts): retriable. */
export const readTimeout = { 503: errorSchema } as const;

/** The answers of an /api read besides its 200: a 304 for a matching ETag, and the errors. */
export const readAnswers = { 304: notModified, ...apiErrors, ...readTimeout } as const;

/** A 404 naming the series, field, metric or tag the store does not hold (QUERY_UNKNOWN_NAME), with the nearest. */
export const unknownNameSchema = errorSchema.extend({
  unknown: z
    .object({
      series: z.array(z.string()).meta({ description: 'Series keys the store has never held' }),
      fields: z
        .array(z.string())
        .meta({ description: 'Fields their series have no data of in the range' }),
      metrics: z
        .array(z.string())
        .meta({ description: 'A metric (window by metric) no series is kept of' }),
      tags: z.array(z.string()).meta({
        description:
          'Tags (window by metric) no series of the metric carries: `key`, or `key=value` for an unknown value of a known key',
      }),
      suggestions: z.record(z.string(), z.array(z.string())).meta({
        description:
          'Per unknown name: the known names nearest to it (edit distance), nearest first',
        examples: [{ pirce: ['price'] }],
      }),
    })
    .meta({ description: 'The names refused, so a typo never reads as missing data' }),
});

/** A read naming series and a field: its answers, and a 404 for a name the store does not hold. */
export const namedReadAnswers = { ...readAnswers, 404: unknownNameSchema } as const;

export type SeriesBody = z.output<typeof seriesListSchema>;
export type PointsBody = z.output<typeof pointsSchema>;
export type CandlesBody = z.output<typeof candlesSchema>;
export type WindowBody = z.output<typeof windowSchema>;
export type StatusBody = z.output<typeof statusSchema>;
export type LevelsBody = z.output<typeof levelsSchema>;
export type RawBody = z.output<typeof rawSchema>;
