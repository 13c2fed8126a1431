import type { Mark } from './marks.js';

/** The totals kept for one numeric field over some span: sums and counts, never averages. */
export interface Aggregate {
  n: number;
  sum: number;
  min: number;
  max: number;
  first: Mark;
  last: Mark;
}

/**
 * Running totals of one field while a flush is folded. First and last are kept as plain
 * numbers rather than `Mark` objects, so adding an observation allocates nothing; the marks
 * are made once per bucket, when the update is built.
 */
export class Totals {
  n = 1;
  sum: number;
  min: number;
  max: number;
  firstT: number;
  firstO: number;
  firstV: number;
  lastT: number;
  lastO: number;
  lastV: number;

  constructor(t: number, o: number, v: number) {
    this.sum = v;
    this.min = v;
    this.max = v;
    this.firstT = t;
    this.firstO = o;
    this.firstV = v;
    this.lastT = t;
    this.lastO = o;
    this.lastV = v;
  }

  /** Adds one observation: event time `t`, offset `o` (ties on `t` break by offset), value `v`. */
  add(t: number, o: number, v: number): void {
    this.n += 1;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
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

  toAggregate(): Aggregate {
    return {
      n: this.n,
      sum: this.sum,
      min: this.min,
      max: this.max,
      first: { t: this.firstT, o: this.firstO, v: this.firstV },
      last: { t: this.lastT, o: this.lastO, v: this.lastV },
    };
  }
}
