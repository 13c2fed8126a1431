import {
  DEFAULT_QUERY_BOUNDS,
  PromQLError,
  PromQLErrorCode,
  overBound,
  type Bound,
  type QueryBounds,
} from '@tickertape/promql';

/**
 * What one request to the Prometheus routes may ask, each bound an API setting (env.ts) that its
 * refusal names. All are checked before any read (issue 37: one request stalled the API).
 */
export interface PromBounds {
  /** The query's characters, bracket depth, terms and selectors (also each `match[]`). */
  query: QueryBounds;
  /** `match[]` values in one request to /series, /labels, /label/…/values. */
  matchParams: Bound;
  /** Series in one answer: of a query's result, or the union of the `match[]` selections. */
  answerSeries: Bound;
}

export const DEFAULT_PROM_BOUNDS: PromBounds = {
  query: DEFAULT_QUERY_BOUNDS,
  matchParams: { limit: 64, setting: 'MAX_MATCH_PARAMS' },
  answerSeries: { limit: 500, setting: 'MAX_ANSWER_SERIES' },
};

/** The bounds from the API's parsed settings. */
export function promBoundsOf(env: {
  MAX_QUERY_LENGTH: number;
  MAX_QUERY_DEPTH: number;
  MAX_QUERY_TERMS: number;
  MAX_QUERY_SELECTORS: number;
  MAX_MATCH_PARAMS: number;
  MAX_ANSWER_SERIES: number;
}): PromBounds {
  const d = DEFAULT_PROM_BOUNDS;
  return {
    query: {
      length: { ...d.query.length, limit: env.MAX_QUERY_LENGTH },
      depth: { ...d.query.depth, limit: env.MAX_QUERY_DEPTH },
      terms: { ...d.query.terms, limit: env.MAX_QUERY_TERMS },
      selectors: { ...d.query.selectors, limit: env.MAX_QUERY_SELECTORS },
    },
    matchParams: { ...d.matchParams, limit: env.MAX_MATCH_PARAMS },
    answerSeries: { ...d.answerSeries, limit: env.MAX_ANSWER_SERIES },
  };
}

/** Counted before any selector is parsed: 5,000 `match[]` once ran 5,000 reads in a row. */
export function checkMatchCount(selectors: readonly string[], bounds: PromBounds): void {
  if (selectors.length > bounds.matchParams.limit)
    throw overBound(bounds.matchParams, 'the request has # match[] parameters', selectors.length);
}

/** An answer of more series than the bound: Prometheus' 422 `execution`, as for too many samples. */
export function tooManySeries(count: number, bounds: PromBounds): PromQLError {
  const bound = bounds.answerSeries;
  return new PromQLError(
    PromQLErrorCode.TooLarge,
    `the answer has ${count} series, more than ${bound.setting} allows (${bound.limit}): add label matchers`,
  );
}
