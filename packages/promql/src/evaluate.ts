import {
  isComparison,
  type BinaryOp,
  type Expr,
  type RangeFunction,
  type Selector,
} from './ast.js';
import { foldWindows } from './fold.js';
import { leftOutWarnings, type LeftOut } from './left-out.js';
import { labelsKey } from './names.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';
import type { SampleSource } from './samples.js';
import { withoutName, type Value, type VectorSeries } from './value.js';
import { aggregate } from './aggregate.js';
import { alignDown, chooseWidth } from './width.js';

/** How far back a bare selector looks for the last tick (Prometheus' default lookback). */
export const LOOKBACK_MS = 5 * 60_000;

const PICKS = new Set(['last_over_time', 'first_over_time']);

/**
 * quantile_over_time reads minutes at the widest, whatever the step: a minute is where both of
 * its answers live — a minute of one tick is exact, and each minute of an hour bucket keeps its
 * own sketch — while day totals keep no sketch, and an hour of a series at one tick a minute is
 * 60 ticks that need one. The price is an hour bucket per series-hour, within the document budget.
 */
const WIDEST_QUANTILE_MS = 60_000;

/** Most window folds one selector may cost (steps × points per window × series): a query this big is refused. */
const MAX_FOLD_WORK = 50_000_000;

export interface Evaluation {
  value: Value;
  /** Levels whose open (not yet final) buckets the answer read. */
  openLevels: string[];
  /**
   * Samples left out because the buckets cannot answer them (a spread or quantile of buckets
   * without the parts), by function and series: Prometheus' `warnings`.
   */
  warnings: string[];
}

/** The type of each expression, known before any read: what we refuse is refused first. */
export function typeOf(expr: Expr): 'scalar' | 'vector' {
  switch (expr.kind) {
    case 'number':
      return 'scalar';
    case 'selector':
      return 'vector';
    case 'range-function':
      if (expr.param && typeOf(expr.param) !== 'scalar')
        throw new PromQLError(PromQLErrorCode.BadParameter, `the φ of ${expr.fn} must be a number`);
      return 'vector';
    case 'negate':
      return typeOf(expr.expr);
    case 'aggregate':
      if (expr.param && typeOf(expr.param) !== 'scalar')
        throw new PromQLError(PromQLErrorCode.BadParameter, `the k of ${expr.op} must be a number`);
      if (typeOf(expr.expr) !== 'vector')
        throw new PromQLError(
          PromQLErrorCode.BadParameter,
          `${expr.op} aggregates a vector, not a number`,
        );
      return 'vector';
    case 'binary': {
      const lhs = typeOf(expr.lhs);
      const rhs = typeOf(expr.rhs);
      if (expr.matching && (lhs === 'scalar' || rhs === 'scalar'))
        throw new PromQLError(
          PromQLErrorCode.BadParameter,
          'on() and ignoring() match two vectors, not a vector and a number',
        );
      if (lhs === 'scalar' && rhs === 'scalar') {
        if (isComparison(expr.op) && !expr.bool)
          throw new PromQLError(
            PromQLErrorCode.BadParameter,
            'comparisons between numbers must use the bool modifier',
          );
        return 'scalar';
      }
      return 'vector';
    }
  }
}

/**
 * Evaluates `expr` at each of `times` (epoch ms, ascending). `stepMs` is the range query's step
 * (absent for an instant query): it bounds the width ranges are summed from (see chooseWidth).
 */
export async function evaluate(
  expr: Expr,
  times: readonly number[],
  stepMs: number | undefined,
  source: SampleSource,
): Promise<Evaluation> {
  typeOf(expr);
  const open = new Set<string>();
  const leftOut: LeftOut[] = [];
  const value = await new Evaluator(times, stepMs, source, open, leftOut).eval(expr);
  return { value, openLevels: [...open].sort(), warnings: leftOutWarnings(leftOut) };
}

class Evaluator {
  constructor(
    private readonly times: readonly number[],
    private readonly stepMs: number | undefined,
    private readonly source: SampleSource,
    private readonly open: Set<string>,
    private readonly leftOut: LeftOut[],
  ) {}

  async eval(expr: Expr): Promise<Value> {
    switch (expr.kind) {
      case 'number':
        return { type: 'scalar', values: this.times.map(() => expr.value) };
      case 'selector':
        return this.select(expr.selector, LOOKBACK_MS, 'last_over_time', true);
      case 'range-function': {
        const param = expr.param ? await this.eval(expr.param) : undefined;
        // A sample picked, not computed: it keeps its name (Prometheus' rule for last_over_time).
        return this.select(
          expr.selector,
          expr.rangeMs,
          expr.fn,
          PICKS.has(expr.fn),
          param?.type === 'scalar' ? param.values : undefined,
        );
      }
      case 'negate':
        return this.binary('*', false, await this.eval(expr.expr), this.constant(-1), true);
      case 'binary': {
        // Both sides at once: the selectors of a sum of 30 read concurrently, not one after another.
        const [lhs, rhs] = await Promise.all([this.eval(expr.lhs), this.eval(expr.rhs)]);
        if (lhs.type === 'vector' && rhs.type === 'vector')
          return matchVectors(expr.op, expr.bool, expr.matching, lhs.series, rhs.series);
        return this.binary(expr.op, expr.bool, lhs, rhs, false);
      }
      case 'aggregate': {
        const param = expr.param ? await this.eval(expr.param) : undefined;
        const k = param?.type === 'scalar' ? param.values[0] : undefined;
        return aggregate(expr, k, await this.eval(expr.expr));
      }
    }
  }

  private constant(value: number): Value {
    return { type: 'scalar', values: this.times.map(() => value) };
  }

  private async select(
    selector: Selector,
    rangeMs: number,
    fn: RangeFunction,
    keepName: boolean,
    phis?: readonly number[],
  ): Promise<Value> {
    const width = chooseWidth(
      rangeMs,
      selector.offsetMs,
      fn === 'quantile_over_time' ? WIDEST_QUANTILE_MS : this.stepMs,
      this.source.widths,
    );
    const ends = this.times.map((t) => alignDown(t - selector.offsetMs, width));
    if ((ends.length * rangeMs) / width > MAX_FOLD_WORK / 10)
      throw new PromQLError(
        PromQLErrorCode.TooLarge,
        `a ${rangeMs / 1000}s range at ${ends.length} steps would fold too many points: use a larger step or a shorter range`,
      );
    const fromMs = Math.max(0, ends[0]! - rangeMs);
    const toMs = ends[ends.length - 1]!;
    if (toMs <= fromMs) return { type: 'vector', series: [] };
    const read = await this.source.read(selector.matchers, { fromMs, toMs, widthMs: width });
    for (const level of read.openLevels) this.open.add(level);
    const work = read.series.reduce((total, s) => total + s.points.length, 0) * ends.length;
    if (work > MAX_FOLD_WORK * 20)
      throw new PromQLError(
        PromQLErrorCode.TooLarge,
        'the query would fold too many points: narrow it',
      );
    return {
      type: 'vector',
      series: unique(
        read.series.map((s) => {
          const { values, unanswered } = foldWindows(s.points, ends, rangeMs, fn, phis);
          if (unanswered > 0)
            this.leftOut.push({ fn, labels: s.labels, windows: unanswered, steps: ends.length });
          return { labels: keepName ? s.labels : withoutName(s.labels), values };
        }),
      ),
    };
  }

  private binary(op: BinaryOp, bool: boolean, lhs: Value, rhs: Value, negation: boolean): Value {
    if (lhs.type === 'scalar' && rhs.type === 'scalar')
      return {
        type: 'scalar',
        values: lhs.values.map((a, i) => apply(op, bool, a, rhs.values[i]!) ?? 0),
      };
    const vectorLeft = lhs.type === 'vector';
    const vector = (vectorLeft ? lhs : rhs) as Extract<Value, { type: 'vector' }>;
    const scalar = (vectorLeft ? rhs : lhs) as Extract<Value, { type: 'scalar' }>;
    // Arithmetic and `bool` comparisons give new values: the name no longer describes them.
    const dropName = negation || !isComparison(op) || bool;
    return {
      type: 'vector',
      series: unique(
        vector.series.map((s) => ({
          labels: dropName ? withoutName(s.labels) : s.labels,
          values: s.values.map((v, i) => {
            if (v === null) return null;
            const number = scalar.values[i]!;
            const result = vectorLeft ? apply(op, bool, v, number) : apply(op, bool, number, v);
            // A filtering comparison keeps the vector's own value where it holds.
            if (isComparison(op) && !bool) return result === null ? null : v;
            return result;
          }),
        })),
      ),
    };
  }
}

/**
 * Two vectors, one to one: each left series meets the right series whose labels agree on the
 * matching labels (all but the name by default; `on(…)` those only; `ignoring(…)` all but those),
 * at the times both have a sample. The result keeps the left side's labels (only the `on` labels
 * with `on`, without the ignored ones with `ignoring`), without the name unless a comparison
 * filters. A match group with two series on one side is refused, as Prometheus refuses it.
 */
function matchVectors(
  op: BinaryOp,
  bool: boolean,
  matching: { on: boolean; labels: string[] } | undefined,
  lhs: readonly VectorSeries[],
  rhs: readonly VectorSeries[],
): Value {
  const signature = (labels: Readonly<Record<string, string>>) => {
    const kept = Object.entries(labels).filter(([label]) =>
      matching?.on
        ? matching.labels.includes(label)
        : label !== '__name__' && !matching?.labels.includes(label),
    );
    return labelsKey(Object.fromEntries(kept));
  };
  const right = new Map<string, VectorSeries>();
  for (const series of rhs) {
    const key = signature(series.labels);
    if (right.has(key))
      throw new PromQLError(
        PromQLErrorCode.DataConflict,
        `found duplicate series for the match group ${key} on the right hand-side of the operation: use on() or ignoring() to match one series to one`,
      );
    right.set(key, series);
  }
  const seen = new Set<string>();
  const dropName = !isComparison(op) || bool;
  const out: VectorSeries[] = [];
  for (const left of lhs) {
    const key = signature(left.labels);
    const other = right.get(key);
    if (!other) continue;
    if (seen.has(key))
      throw new PromQLError(
        PromQLErrorCode.DataConflict,
        `found duplicate series for the match group ${key} on the left hand-side of the operation: use on() or ignoring() to match one series to one`,
      );
    seen.add(key);
    let labels: Record<string, string> = Object.fromEntries(
      Object.entries(left.labels).filter(([label]) =>
        matching?.on ? matching.labels.includes(label) : !matching?.labels.includes(label),
      ),
    );
    if (dropName) labels = withoutName(labels);
    out.push({
      labels,
      values: left.values.map((a, i) => {
        const b = other.values[i];
        if (a === null || b === null || b === undefined) return null;
        return apply(op, bool, a, b);
      }),
    });
  }
  return { type: 'vector', series: unique(out) };
}

/** `a op b`; a filtering comparison that fails is `null` (the sample is dropped). */
function apply(op: BinaryOp, bool: boolean, a: number, b: number): number | null {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '^':
      return a ** b;
    default: {
      const holds = compare(op, a, b);
      if (bool) return holds ? 1 : 0;
      return holds ? a : null;
    }
  }
}

function compare(op: BinaryOp, a: number, b: number): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    default:
      return a <= b;
  }
}

/** Prometheus refuses a vector holding one label set twice (two names whose name was dropped). */
function unique(series: VectorSeries[]): VectorSeries[] {
  const seen = new Set<string>();
  for (const s of series) {
    const key = labelsKey(s.labels);
    if (seen.has(key))
      throw new PromQLError(
        PromQLErrorCode.DataConflict,
        `vector cannot contain metrics with the same labelset ${key}: select one name, or aggregate`,
      );
    seen.add(key);
  }
  return series;
}
