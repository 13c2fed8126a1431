/*
 * What the tables read of each of the reader's results (@tickertape/query's RangeResult,
 * CandleResult, WindowResult, RawPointsResult, SeriesResult, StatusResult) and of the API's
 * bodies, which mirror them: only the fields a table shows, so this package needs neither the
 * reader nor the database to be built or tested.
 */

/** With a time zone (`tz`): a step's UTC end and its start in the zone's wall time. */
export interface LocalStepRead {
  end?: number;
  local?: string;
}

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
  /** The zone of the steps, when one was asked for: the table gains local_time and end. */
  tz?: string;
  /** The fill asked for: the table gains `filled`. */
  fill?: string;
  points: readonly (LocalStepRead & {
    t: number;
    n: number | null;
    sum: number | null;
    /** Null only in a step filled with nulls (`filled`). */
    avg: number | null;
    min: number | null;
    max: number | null;
    /** The interval's first and last value. */
    open: number | null;
    close: number | null;
    final: boolean;
    filled?: boolean;
  } & StatsRead)[];
}

export interface CandlesRead {
  series: string;
  field: string;
  tz?: string;
  candles: readonly (LocalStepRead & {
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
  /** With a time zone: its name, and the window's bounds in its wall time. */
  tz?: string;
  local?: { from: string; to: string };
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
