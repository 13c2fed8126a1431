import { labelsKey } from './names.js';
import type { Value } from './value.js';

type Sample = [number, string];

/** The `data` of a query answer, in the Prometheus HTTP API's shapes. */
export type QueryData =
  | { resultType: 'scalar'; result: Sample }
  | { resultType: 'vector'; result: { metric: Record<string, string>; value: Sample }[] }
  | { resultType: 'matrix'; result: { metric: Record<string, string>; values: Sample[] }[] };

/** A sample value as Prometheus writes it: a string, with NaN and ±Inf spelled its way. */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

const sample = (t: number, v: number): Sample => [t / 1000, formatSampleValue(v)];

const byLabels = <T extends { metric: Record<string, string> }>(a: T, b: T) => {
  const ka = labelsKey(a.metric);
  const kb = labelsKey(b.metric);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** An instant query's answer: the value at its one time. */
export function instantData(value: Value, t: number): QueryData {
  if (value.type === 'scalar') return { resultType: 'scalar', result: sample(t, value.values[0]!) };
  return {
    resultType: 'vector',
    result: value.series
      .flatMap((s) =>
        s.values[0] === null || s.values[0] === undefined
          ? []
          : [{ metric: s.labels, value: sample(t, s.values[0]) }],
      )
      .sort(byLabels),
  };
}

/** A range query's answer: a matrix, each series with the times it has a sample at. */
export function rangeData(value: Value, times: readonly number[]): QueryData {
  if (value.type === 'scalar')
    return {
      resultType: 'matrix',
      result: [{ metric: {}, values: value.values.map((v, i) => sample(times[i]!, v)) }],
    };
  return {
    resultType: 'matrix',
    result: value.series
      .map((s) => ({
        metric: s.labels,
        values: s.values.flatMap((v, i) => (v === null ? [] : [sample(times[i]!, v)])),
      }))
      .filter((s) => s.values.length > 0)
      .sort(byLabels),
  };
}
