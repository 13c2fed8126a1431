/**
 * A number the capacity model starts from, with where it is in the benchmark's JSON and the
 * values it was computed from, so every figure of docs/capacity.md can be traced back.
 */
export interface Figure {
  /** `M1`, `M2`… in the order they were first used. */
  id: string;
  what: string;
  /** JSON field(s) it comes from. */
  field: string;
  /** The JSON values, and the arithmetic when it is more than one field. */
  source: string;
  value: number;
  /** The value as the doc prints it, with its unit. */
  shown: string;
}

/** Hands out ids in order; the doc lists the figures in that order. */
export class FigureRegistry {
  readonly figures: Figure[] = [];

  add(what: string, field: string, source: string, value: number, shown: string): Figure {
    const figure = { id: `M${this.figures.length + 1}`, what, field, source, value, shown };
    this.figures.push(figure);
    return figure;
  }
}

/** Figures of a source: enough digits to recompute, thousands grouped. */
export function raw(value: number): string {
  const digits = Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 1 ? 3 : 6;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}
