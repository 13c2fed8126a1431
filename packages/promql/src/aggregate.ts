import type { Expr } from './ast.js';
import { labelsKey } from './names.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';
import type { Value, VectorSeries } from './value.js';

type AggregateExpr = Extract<Expr, { kind: 'aggregate' }>;

/** The labels a series is grouped by: `by` keeps the listed ones, `without` drops them (and the name). */
function groupLabels(
  labels: Readonly<Record<string, string>>,
  grouping: AggregateExpr['grouping'],
): Record<string, string> {
  if (!grouping) return {};
  return Object.fromEntries(
    Object.entries(labels).filter(([label]) =>
      grouping.without
        ? label !== '__name__' && !grouping.labels.includes(label)
        : grouping.labels.includes(label),
    ),
  );
}

/**
 * sum, avg, min, max, count per group at each time, over the series that have a sample there;
 * topk and bottomk keep the k largest or smallest samples of each group, with their own labels.
 */
export function aggregate(expr: AggregateExpr, k: number | undefined, input: Value): Value {
  if (input.type !== 'vector')
    throw new PromQLError(PromQLErrorCode.BadParameter, `${expr.op} aggregates a vector`);
  const groups = new Map<string, { labels: Record<string, string>; members: VectorSeries[] }>();
  for (const series of input.series) {
    const labels = groupLabels(series.labels, expr.grouping);
    const key = labelsKey(labels);
    const group = groups.get(key) ?? { labels, members: [] };
    group.members.push(series);
    groups.set(key, group);
  }
  const times = input.series[0]?.values.length ?? 0;
  if (expr.op === 'topk' || expr.op === 'bottomk') return ranked(expr.op, k, groups, times);
  return {
    type: 'vector',
    series: [...groups.values()].map(({ labels, members }) => ({
      labels,
      values: Array.from({ length: times }, (_, i) => {
        const samples = members.flatMap((m) => (m.values[i] === null ? [] : [m.values[i]!]));
        return samples.length === 0 ? null : combine(expr.op, samples);
      }),
    })),
  };
}

function combine(op: AggregateExpr['op'], samples: readonly number[]): number {
  switch (op) {
    case 'sum':
      return samples.reduce((a, b) => a + b, 0);
    case 'avg':
      return samples.reduce((a, b) => a + b, 0) / samples.length;
    case 'count':
      return samples.length;
    case 'min':
      return extreme(samples, (a, b) => a < b);
    default:
      return extreme(samples, (a, b) => a > b);
  }
}

/** The smallest or largest sample; NaN only when every sample is NaN (Prometheus' rule). */
function extreme(samples: readonly number[], better: (a: number, b: number) => boolean): number {
  let best = NaN;
  for (const v of samples) if (Number.isNaN(best) || better(v, best)) best = v;
  return best;
}

function ranked(
  op: 'topk' | 'bottomk',
  k: number | undefined,
  groups: Map<string, { members: VectorSeries[] }>,
  times: number,
): Value {
  if (k === undefined || !Number.isFinite(k))
    throw new PromQLError(PromQLErrorCode.BadParameter, `${op} needs a finite number k`);
  const keep = Math.floor(k);
  const out = new Map<VectorSeries, (number | null)[]>();
  for (const { members } of groups.values()) {
    for (let i = 0; i < times; i++) {
      const present = members.filter((m) => m.values[i] !== null && !Number.isNaN(m.values[i]));
      present.sort((a, b) =>
        op === 'topk' ? b.values[i]! - a.values[i]! : a.values[i]! - b.values[i]!,
      );
      for (const member of present.slice(0, Math.max(0, keep))) {
        const values = out.get(member) ?? new Array<number | null>(times).fill(null);
        values[i] = member.values[i]!;
        out.set(member, values);
      }
    }
  }
  return {
    type: 'vector',
    series: [...out.entries()].map(([member, values]) => ({ labels: member.labels, values })),
  };
}
