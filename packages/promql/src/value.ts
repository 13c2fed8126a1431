/** A PromQL value over the evaluation times: one number per time, or series with a value (or none) per time. */
export type Value =
  { type: 'scalar'; values: number[] } | { type: 'vector'; series: VectorSeries[] };

export interface VectorSeries {
  labels: Record<string, string>;
  /** Aligned with the evaluation times; `null` where the series has no sample. */
  values: (number | null)[];
}

export function withoutName(labels: Readonly<Record<string, string>>): Record<string, string> {
  const { __name__: _name, ...rest } = labels;
  return rest;
}
