/**
 * A minute bucket counts its ticks per second once per *field set* (the numeric field names a
 * tick carries), not once per field: a series whose ticks always carry the same fields — nearly
 * every series — then pays one count per second however many fields it has, and a field that
 * only some ticks carry still gets its exact count (the sum over the sets that contain it).
 *
 * The key is the names in UTF-16 order, `\` and `,` backslash-escaped, joined by `,`. Names
 * never contain `.` nor start with `$` (validation), so the key is a valid MongoDB path part.
 */

const SPECIAL = /[\\,]/g;

function escapeName(name: string): string {
  return name.includes(',') || name.includes('\\') ? name.replace(SPECIAL, '\\$&') : name;
}

/** The field-set key of `names` (any order; an empty set gives `''`). */
export function fieldSetKeyOf(names: readonly string[]): string {
  return [...names].sort().map(escapeName).join(',');
}

/**
 * The field-set key of a tick's numeric fields. The hot path: producers send fields in one
 * order, so the sort is skipped when they already come sorted.
 */
export function fieldSetKey(fields: Readonly<Record<string, number>>): string {
  let key = '';
  let previous: string | undefined;
  for (const name in fields) {
    if (previous !== undefined && !(previous < name)) return fieldSetKeyOf(Object.keys(fields));
    key = previous === undefined ? escapeName(name) : `${key},${escapeName(name)}`;
    previous = name;
  }
  return key;
}

/** The names a field-set key was made of, in key order. */
export function fieldSetNames(key: string): string[] {
  if (key === '') return [];
  const names: string[] = [];
  let current = '';
  for (let i = 0; i < key.length; i += 1) {
    const char = key[i]!;
    if (char === '\\' && i + 1 < key.length) {
      current += key[i + 1]!;
      i += 1;
    } else if (char === ',') {
      names.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  names.push(current);
  return names;
}

/** A minute bucket's per-second tick counts: field-set key → second → ticks. */
export type SecondCounts = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * How many ticks in each second carried `field`: the sum over the field sets that contain it.
 * Seconds without one (or with a shell's 0) are absent.
 */
export function secondCountsOf(
  counts: SecondCounts | undefined,
  field: string,
): Map<number, number> {
  const bySecond = new Map<number, number>();
  if (counts === undefined) return bySecond;
  for (const [key, seconds] of Object.entries(counts)) {
    if (!fieldSetNames(key).includes(field)) continue;
    for (const [second, count] of Object.entries(seconds)) {
      if (typeof count !== 'number' || !(count > 0)) continue;
      const index = Number(second);
      bySecond.set(index, (bySecond.get(index) ?? 0) + count);
    }
  }
  return bySecond;
}
