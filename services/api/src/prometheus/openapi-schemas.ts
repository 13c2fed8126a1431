import { z } from 'zod';
import { notModified } from '../response-schemas.js';

/**
 * What /openapi.json says of the Prometheus routes: their parameters (the query string of a GET,
 * the form of a POST) and every answer they give. The routes do not validate by these schemas:
 * PromParams reads the parameters as Prometheus does (the body before the URL, `limit` as Go's
 * Atoi), and the answers are Prometheus' envelopes, written as they are.
 */

/**
 * Patterns a little wider than what parseTime and parseDurationMs read: generators of requests
 * (schemathesis) then try instants and durations, not any text.
 */
const INSTANT_PATTERN = String.raw`^([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|\d{4}-\d{2}-\d{2}T.+)$`;
const DURATION_PATTERN = String.raw`^(\d+(\.\d+)?|(\d+(ms|[smhdwy]))+)$`;

const instant = (description: string) =>
  z.string().meta({
    description: `${description}: RFC 3339 or Unix seconds, years 0000 to 9999`,
    examples: ['2026-03-02T09:30:00Z', '1772443800'],
    pattern: INSTANT_PATTERN,
  });

const query = z.string().meta({
  description: 'A PromQL expression (docs/analysts.md lists what is evaluated)',
  examples: ['avg_over_time(traffic_speed[5m])'],
});

/** One `match[]` or several: in a URL or a form, one value is a list of one. */
const matchList = z.union([z.string(), z.array(z.string())]).meta({
  description:
    'Series selectors, repeatable (`match[]=a&match[]=b`): the union of what they select',
  examples: ['traffic_speed{dir="E"}'],
});

/** Discovery without start/end looks at the day before `end` (Prometheus: all time). */
const lookup = {
  start: instant(
    'Start of the lookup; the day before `end` when absent (Prometheus: all time)',
  ).optional(),
  end: instant('End of the lookup; now when absent').optional(),
};

/** The parameters of each route, by the names `both` and the single GET routes use. */
export const PROM_PARAMS = {
  query: z.object({
    query,
    time: instant('Evaluation time; the current second when absent').optional(),
  }),
  queryRange: z.object({
    query,
    start: instant('First evaluation time'),
    end: instant('Last evaluation time at most'),
    step: z.string().meta({
      description: 'Step between evaluations: a duration (`1m`, `90s`) or seconds (`60`)',
      examples: ['60s'],
      pattern: DURATION_PATTERN,
    }),
  }),
  labels: z.object({ 'match[]': matchList.optional(), ...lookup }),
  labelValues: z.object({ 'match[]': matchList.optional(), ...lookup }),
  series: z.object({ 'match[]': matchList, ...lookup }),
  metadata: z.object({
    metric: z.string().optional().meta({ description: 'Only this name' }),
    limit: z
      .int()
      .optional()
      .meta({ description: 'Names listed at most; a negative one is no limit, 0 none' }),
  }),
  buildinfo: z.object({}),
} as const;

export const labelNameParam = z.object({
  name: z.string().meta({
    description: 'A label name (`[a-zA-Z_][a-zA-Z0-9_]*`); `__name__` lists the series names',
    examples: ['dir', '__name__'],
  }),
});

const warnings = z
  .array(z.string())
  .optional()
  .meta({ description: 'What the answer left out (Grafana shows them)' });

const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ status: z.literal('success'), data, warnings });

const sampleValue = z
  .tuple([z.number(), z.string()])
  .meta({ description: '[Unix seconds, the value as a decimal string]' });

const labelSet = z.record(z.string(), z.string());

const queryData = z.object({
  resultType: z.enum(['vector', 'matrix', 'scalar', 'string']),
  result: z.union([
    z.array(z.object({ metric: labelSet, value: sampleValue })),
    z.array(z.object({ metric: labelSet, values: z.array(sampleValue) })),
    sampleValue,
  ]),
});

/** The 200 of each route: Prometheus' success envelope around its data. */
export const PROM_DATA = {
  query: envelope(queryData),
  queryRange: envelope(queryData),
  labels: envelope(z.array(z.string())),
  labelValues: envelope(z.array(z.string())),
  series: envelope(z.array(labelSet)),
  metadata: envelope(
    z.record(
      z.string(),
      z.array(z.object({ type: z.string(), help: z.string(), unit: z.string() })),
    ),
  ),
  buildinfo: envelope(
    z.object({
      version: z.string(),
      revision: z.string(),
      branch: z.string(),
      buildUser: z.string(),
      buildDate: z.string(),
      goVersion: z.string(),
    }),
  ),
} satisfies Record<keyof typeof PROM_PARAMS, z.ZodType>;

export const promErrorSchema = z.object({
  status: z.literal('error'),
  errorType: z.string().meta({
    description:
      'bad_data (400: the request), execution (422: over a bound or budget, or the data makes the evaluation fail), timeout (503: reads past API_READ_TIMEOUT_MS), unauthorized (401), not_found, internal (500)',
  }),
  error: z.string().meta({ description: 'What is refused, cut to 1000 characters' }),
});

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: promErrorSchema } },
});

/** The answers of a route besides its 200; a POSTed form also meets the body parser's refusals. */
export function promAnswers(route: keyof typeof PROM_PARAMS, method: 'GET' | 'POST') {
  return {
    200: {
      description:
        'Success (Prometheus’ envelope); X-Tickertape-Final says whether it read only final buckets',
      content: { 'application/json': { schema: PROM_DATA[route] } },
    },
    304: notModified,
    400: error('bad_data: a parameter or the query is wrong, or over a bound of the request'),
    401: error('unauthorized: no bearer token, or not one the API accepts'),
    ...(method === 'POST'
      ? {
          413: error('The form is larger than the API takes'),
          415: error('The body is not application/x-www-form-urlencoded'),
        }
      : {}),
    ...(route === 'buildinfo'
      ? {}
      : {
          422: error(
            'execution: over the read budget or the series bound, or the data makes the evaluation fail (as Prometheus’ engine errors)',
          ),
        }),
    500: error('internal: failed on our side; the log holds the details'),
    ...(route === 'buildinfo'
      ? {}
      : { 503: error('timeout: its reads took longer than API_READ_TIMEOUT_MS (retriable)') }),
  };
}
