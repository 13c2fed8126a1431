import {
  LEVEL_SPECS,
  LEVELS,
  slotStart,
  sqCoversAll,
  subSlot,
  type Aggregate,
  type CoarseLevel,
  type Mark,
  type SketchBins,
} from '@tickertape/buckets';
import { bucketDocument, chronological } from './reference-fold.js';

type Totals = Aggregate;

/** Σ of an optional part over the entries that have it; absent when none has it. */
function sumOf(totals: readonly Totals[], part: 'sq' | 'xw' | 'w' | 'wn'): { [k: string]: number } {
  const having = totals.filter((t) => t[part] !== undefined);
  return having.length === 0 ? {} : { [part]: having.reduce((a, t) => a + t[part]!, 0) };
}

/** A finer field's sketch: on its totals (a minute bucket) or the bins of all its sub-slots added. */
function sketchOf(field: Record<string, unknown>, finerSubKey: string): SketchBins | undefined {
  if (typeof field.q === 'object' && field.q !== null) return field.q as SketchBins;
  const subs = Object.values((field[finerSubKey] ?? {}) as Record<string, { q?: SketchBins }>);
  const all = subs.flatMap((sub) => (sub.q === undefined ? [] : Object.entries(sub.q)));
  if (all.length === 0) return undefined;
  const bins: SketchBins = {};
  for (const [key, count] of all) bins[key] = (bins[key] ?? 0) + count;
  return bins;
}

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
  const finerSubKey = LEVEL_SPECS[LEVELS[LEVELS.indexOf(level) - 1]!].subKey;
  const start = slotStart(level, (head.start as Date).getTime());
  const entries = new Map<string, [string, Totals][]>();
  const strings = new Map<string, { first: Mark<string>; last: Mark<string> }[]>();
  const ap: Record<string, number> = {};
  for (const bucket of real) {
    const index = String(subSlot(level, (bucket.start as Date).getTime()));
    for (const [name, field] of Object.entries((bucket.f ?? {}) as Record<string, Totals>)) {
      if (!(field.n > 0)) continue;
      const { n, sum, min, max, first, last, xw, w } = field;
      // Σx² that does not cover all of a finer field's ticks is no spread (sqCoversAll).
      const sq = sqCoversAll(field) ? field.sq : undefined;
      // A finer bucket written before `wn` existed counted every tick it weighed as n.
      const wn = field.wn ?? n;
      const q = sketchOf(field as unknown as Record<string, unknown>, finerSubKey);
      const entry: Totals = {
        n,
        sum,
        min,
        max,
        first,
        last,
        ...(sq === undefined ? {} : { sq }),
        ...(xw === undefined || w === undefined ? {} : { xw, w, wn }),
        ...(q === undefined ? {} : { q }),
      };
      entries.set(name, [...(entries.get(name) ?? []), [index, entry]]);
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
      ...sumOf(totals, 'sq'),
      sqn: totals.reduce((a, t) => a + (t.sq === undefined ? 0 : t.n), 0),
      ...sumOf(
        totals.filter((t) => t.w !== undefined),
        'xw',
      ),
      ...sumOf(totals, 'w'),
      ...sumOf(totals, 'wn'),
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
