// The JSON answers of /api/v1 as the page reads them: only the fields it uses. The API's
// OpenAPI document (/openapi.json) is the full description.

export interface SeriesInfo {
  series: string;
  metric: string;
  tags: Record<string, string>;
  fields: string[];
  lastSlotMs: number;
}

export interface SeriesResponse {
  series: SeriesInfo[];
  level: string;
  examined: number;
  truncated: boolean;
}

export interface Point {
  t: number;
  n: number | null;
  sum: number | null;
  min: number;
  max: number;
  open: number;
  close: number;
  avg: number;
  final: boolean;
}

export interface Candle {
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
  final: boolean;
}

/** [from, to) without data. */
export interface Gap {
  from: number;
  to: number;
}

export interface Resolution {
  stepMs: number;
  source: { level: string; detail: string };
}

export interface RangeBase {
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
  resolution: Resolution;
  gaps: Gap[];
  examined: number;
}

export interface PointsResponse extends RangeBase {
  points: Point[];
}

export interface CandlesResponse extends RangeBase {
  candles: Candle[];
}

export interface LevelStatus {
  level: string;
  latestSlotMs: number | null;
  freshnessMs: number | null;
  latestFinal: boolean;
  finalBefore: number | null;
  lag: number | null;
}

export interface StatusResponse {
  series: string;
  levels: LevelStatus[];
  examined: number;
}

export interface RawPoint {
  t: number;
  v: Record<string, number>;
}

export interface RawResponse {
  series: string;
  fromMs: number;
  toMs: number;
  points: RawPoint[];
  before: RawPoint | null;
  after: RawPoint | null;
  examined: number;
}

export interface Observation {
  t: number;
  v: number;
}

export interface WindowRow {
  series: string;
  n: number;
  sum: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  first: Observation | null;
  last: Observation | null;
  final: boolean;
}

export interface WindowResponse {
  field: string;
  fromMs: number;
  toMs: number;
  rows: WindowRow[];
  examined: number;
  selected?: { metric: string; tags: Record<string, string>; series: number; truncated: boolean };
}

/** What each GET /api/v1/<path> the page asks answers. */
export interface Answers {
  series: SeriesResponse;
  points: PointsResponse;
  candles: CandlesResponse;
  raw: RawResponse;
  status: StatusResponse;
  window: WindowResponse;
}
