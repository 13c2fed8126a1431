/*
 * What the tables read of each of the reader's results (@tickertape/query's RangeResult,
 * CandleResult, WindowResult, RawPointsResult, SeriesResult, StatusResult) and of the API's
 * bodies, which mirror them: only the fields a table shows, so this package needs neither the
 * reader nor the database to be built or tested.
 */

/**
 * The stats of a point, candle or window row (@tickertape/query's `Stats`): spread always,
 * quantiles when asked for, the weighted average of a weighted field, and the ticks each covers.
 */
export interface StatsRead {
  variance: number | null;
  stddev: number | null;
  /** Keyed by column name: `q0.85`. */
  quantiles?: Readonly<Record<string, number | null>>;
  weighted?: { by: string; avg: number | null };
  coverage: { spread: number; sketch?: number; weighted?: number };
}

export interface PointsRead {
  series: string;
  field: string;
  points: readonly ({
    t: number;
    n: number | null;
    sum: number | null;
    avg: number;
    min: number;
    max: number;
    /** The interval's first and last value. */
    open: number;
    close: number;
    final: boolean;
  } & StatsRead)[];
}

export interface CandlesRead {
  series: string;
  field: string;
  candles: readonly ({
    t: number;
    open: number;
    high: number;
    low: number;
    close: number;
    volume: number | null;
    final: boolean;
  } & StatsRead)[];
}

/** An observation: its event time and value. */
export interface Mark {
  t: number;
  v: number;
}

export interface WindowRead {
  field: string;
  fromMs: number;
  toMs: number;
  rows: readonly ({
    series: string;
    n: number;
    sum: number;
    avg: number | null;
    min: number | null;
    max: number | null;
    first: Mark | null;
    last: Mark | null;
    final: boolean;
  } & StatsRead)[];
}

export interface RawPoint {
  t: number;
  v: Readonly<Record<string, number>>;
}

export interface RawRead {
  series: string;
  points: readonly RawPoint[];
  before: RawPoint | null;
  after: RawPoint | null;
}

export interface SeriesListRead {
  series: readonly {
    series: string;
    metric: string;
    tags: Readonly<Record<string, string>>;
    fields: readonly string[];
    lastSlotMs: number;
  }[];
}

export interface StatusRead {
  series: string;
  levels: readonly {
    level: string;
    latestSlotMs: number | null;
    freshnessMs: number | null;
    latestFinal: boolean;
    finalBefore: number | null;
  }[];
}
