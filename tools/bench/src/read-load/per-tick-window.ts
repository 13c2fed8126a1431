import type { WindowRow } from '@tickertape/query';
import type { Collection } from 'mongodb';
import type { TickDocument } from '../designs.js';

/** One series' totals over a window: the API's window row without first, last and finality. */
export type PerTickRow = Pick<WindowRow, 'series' | 'n' | 'sum' | 'avg' | 'min' | 'max'>;

/**
 * Design C's answer to the seed's question: each series' ticks in [from, to) read from the
 * per-tick collection — one `{series, ts}` range find per series, all at once (what its index
 * serves best) — and summed here. Returns the rows and the documents read.
 */
export async function perTickWindow(
  ticks: Collection<TickDocument>,
  series: readonly string[],
  field: string,
  fromMs: number,
  toMs: number,
): Promise<{ rows: PerTickRow[]; documents: number }> {
  let documents = 0;
  const rows = await Promise.all(
    series.map(async (key) => {
      const docs = await ticks
        .find(
          { series: key, ts: { $gte: new Date(fromMs), $lt: new Date(toMs) } },
          { projection: { _id: 0, [`fields.${field}`]: 1 } },
        )
        .toArray();
      documents += docs.length;
      const values = docs
        .map((doc) => doc.fields[field])
        .filter((v): v is number => typeof v === 'number');
      const sum = values.reduce((a, b) => a + b, 0);
      const seen = values.length > 0;
      return {
        series: key,
        n: values.length,
        sum,
        avg: seen ? sum / values.length : null,
        min: seen ? Math.min(...values) : null,
        max: seen ? Math.max(...values) : null,
      };
    }),
  );
  return { rows, documents };
}
