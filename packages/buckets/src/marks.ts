/**
 * A value with its position: event time `t`, Kafka offset `o`. Stored as `{t, o, v}` so that
 * MongoDB's `$min`/`$max` on the embedded document — which compare field by field, in order —
 * pick first/last by event time with the offset as tie-break, whatever order ticks arrive in.
 */
export interface Mark<V = number> {
  t: number;
  o: number;
  v: V;
}

export function isBefore(a: Mark<unknown>, b: Mark<unknown>): boolean {
  return a.t < b.t || (a.t === b.t && a.o < b.o);
}

export function earlier<V>(a: Mark<V>, b: Mark<V>): Mark<V> {
  return isBefore(b, a) ? b : a;
}

export function later<V>(a: Mark<V>, b: Mark<V>): Mark<V> {
  return isBefore(a, b) ? b : a;
}
