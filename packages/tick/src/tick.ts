/**
 * One observation, as the pipeline handles it after decoding. `source` is absent when the tick
 * came through the v1 schema or was built by hand; decoding always sets it (`null` when unknown).
 */
export interface Tick {
  metric: string;
  tags: Record<string, string>;
  /** Event time in ms since the Unix epoch (UTC); an integer. */
  ts: number;
  /** Numeric fields; the rollups fold these. */
  fields: Record<string, number>;
  /** Optional string fields such as `weather`; kept, not aggregated. */
  strings: Record<string, string>;
  /** The producer that sent it (schema v2). */
  source?: string | null;
}
