import type { Mark } from './marks.js';
import type { Sketch } from './sketch.js';

/**
 * The totals kept for one numeric field over some span: sums and counts, never averages. The
 * optional parts are absent where a bucket was written before they existed, or where the level
 * policy does not keep them (docs/data-layout.md).
 */
export interface Aggregate {
  n: number;
  sum: number;
  min: number;
  max: number;
  first: Mark;
  last: Mark;
  /** Σx²: the spread (variance = sq/n − (sum/n)²). */
  sq?: number;
  /** Σ(x·w) and Σw over the ticks that carry the field's weight field w too (weighted average). */
  xw?: number;
  w?: number;
  /**
   * The ticks Σx·w and Σw cover: fewer than n where some ticks lacked the weight field, or came
   * before the policy weighted it. Absent in buckets written before it existed (then: n).
   */
  wn?: number;
  /**
   * On a field's totals only: the ticks its Σx² — and every sub-slot's — covers. Fewer than n in a
   * bucket written partly before Σx² existed, whose spread no part can answer then. Absent in
   * buckets written before it existed (Σx² then trusted where present).
   */
  sqn?: number;
  /** Quantile sketch of the values (sketch.ts), for metrics the policy sketches. */
  q?: Sketch;
}

/**
 * Whether a stored field's Σx² — its totals' and every sub-slot's — covers all its ticks: `sqn`
 * (on the field's totals) equals n, or is absent in a bucket written before `sqn` existed, by code
 * that wrote Σx² with every tick. Only the field's `n` and `sqn` are looked at.
 */
export function sqCoversAll(field: { readonly n?: unknown; readonly sqn?: unknown }): boolean {
  return typeof field.sqn !== 'number' || field.sqn === field.n;
}

/**
 * First and last value by (event time, offset) while a flush is folded, kept as plain numbers
 * and values rather than `Mark` objects, so an observation allocates nothing; the marks are made
 * once per bucket, when the update is built. Within one delta (one Kafka partition) `(t, o)` is
 * unique, so the value never has to break a tie here.
 */
export class Ends<V> {
  firstT: number;
  firstO: number;
  firstV: V;
  lastT: number;
  lastO: number;
  lastV: V;

  constructor(t: number, o: number, v: V) {
    this.firstT = this.lastT = t;
    this.firstO = this.lastO = o;
    this.firstV = this.lastV = v;
  }

  protected addEnds(t: number, o: number, v: V): void {
    if (t < this.firstT || (t === this.firstT && o < this.firstO)) {
      this.firstT = t;
      this.firstO = o;
      this.firstV = v;
    }
    if (t > this.lastT || (t === this.lastT && o > this.lastO)) {
      this.lastT = t;
      this.lastO = o;
      this.lastV = v;
    }
  }

  add(t: number, o: number, v: V): void {
    this.addEnds(t, o, v);
  }

  get first(): Mark<V> {
    return { t: this.firstT, o: this.firstO, v: this.firstV };
  }

  get last(): Mark<V> {
    return { t: this.lastT, o: this.lastO, v: this.lastV };
  }
}

/**
 * Running totals of one numeric field: count, sum, min, max, first and last, and Σx² (always).
 * The parts the level policy asks for are kept by the fold beside them: Σx·w and Σw of a weighted
 * field (`weigh`), and the sketch bins of a sketched metric (`q`, at its level's granularity).
 */
export class Totals extends Ends<number> {
  n = 1;
  sum: number;
  min: number;
  max: number;
  sq: number;
  /** Σ(x·w) and Σw over the ticks that carried the weight field; `weighed` counts them. */
  xw = 0;
  w = 0;
  weighed = 0;
  /**
   * Sketch bins by key (sketch.ts), when this aggregate keeps a sketch (the fold creates them).
   * A Map rather than the stored object: bin keys look like array indexes (`'262'`), and an
   * object keyed so grows a sparse elements store per aggregate, at twice the fold's cost.
   */
  bins: Map<string, number> | undefined = undefined;

  constructor(t: number, o: number, v: number) {
    super(t, o, v);
    this.sum = v;
    this.min = v;
    this.max = v;
    this.sq = v * v;
  }

  override add(t: number, o: number, v: number): void {
    this.n += 1;
    this.sum += v;
    this.sq += v * v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    this.addEnds(t, o, v);
  }

  /** One tick's value `x` with its weight `w`. */
  weigh(x: number, w: number): void {
    this.xw += x * w;
    this.w += w;
    this.weighed += 1;
  }
}
