import { LEVEL_SPECS, slotStart, subSlot, type CoarseLevel, type Mark } from '@tickertape/buckets';
import { bucketDocument, chronological } from './reference-fold.js';

type Totals = { n: number; sum: number; min: number; max: number; first: Mark; last: Mark };

/**
 * The coarse bucket the checker expects from one slot's finer buckets (one series), computed the
 * plain way — collect, sort, add up — rather than with rollUp's incremental merge: each finer
 * bucket's totals are its sub-slot entry, the totals are those of all entries, `ap` the highest
 * of the sources'. Shells and empty fields contribute nothing; `undefined` when nothing remains.
 */
export function expectedFromFiner(
  level: CoarseLevel,
  finer: readonly Readonly<Record<string, unknown>>[],
): Record<string, unknown> | undefined {
  const real = finer.filter((b) => (b.n as number) > 0);
  const head = real[0];
  if (head === undefined) return undefined;
  const { subKey } = LEVEL_SPECS[level];
  const start = slotStart(level, (head.start as Date).getTime());
  const entries = new Map<string, [string, Totals][]>();
  const strings = new Map<string, { first: Mark<string>; last: Mark<string> }[]>();
  const ap: Record<string, number> = {};
  for (const bucket of real) {
    const index = String(subSlot(level, (bucket.start as Date).getTime()));
    for (const [name, field] of Object.entries((bucket.f ?? {}) as Record<string, Totals>)) {
      if (!(field.n > 0)) continue;
      const { n, sum, min, max, first, last } = field;
      entries.set(name, [...(entries.get(name) ?? []), [index, { n, sum, min, max, first, last }]]);
    }
    for (const [name, marks] of Object.entries((bucket.s ?? {}) as Record<string, never>))
      strings.set(name, [...(strings.get(name) ?? []), marks]);
    for (const [p, offset] of Object.entries((bucket.ap ?? {}) as Record<string, number>))
      ap[p] = Math.max(ap[p] ?? -1, offset);
  }
  const f: Record<string, unknown> = {};
  for (const [name, list] of entries) {
    const totals = list.map(([, t]) => t);
    const firsts = totals.map((t) => t.first).sort(chronological);
    const lasts = totals.map((t) => t.last).sort(chronological);
    f[name] = {
      n: totals.reduce((a, t) => a + t.n, 0),
      sum: totals.reduce((a, t) => a + t.sum, 0),
      min: Math.min(...totals.map((t) => t.min)),
      max: Math.max(...totals.map((t) => t.max)),
      first: firsts[0],
      last: lasts[lasts.length - 1],
      [subKey]: Object.fromEntries(list),
    };
  }
  const s: Record<string, unknown> = {};
  for (const [name, list] of strings)
    s[name] = {
      first: list.map((m) => m.first).sort(chronological)[0],
      last: list.map((m) => m.last).sort(chronological)[list.length - 1],
    };
  const n = real.reduce((a, b) => a + (b.n as number), 0);
  return bucketDocument(head, level, start, { n, ...(entries.size > 0 ? { f } : {}), s, ap });
}
