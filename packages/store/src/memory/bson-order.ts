/**
 * MongoDB's order of values (the BSON comparison `$min`, `$max` and `$gte` apply), for the kinds
 * a bucket holds: numbers (±Infinity included, NaN below every other number), strings (by their
 * UTF-8 bytes, not JavaScript's UTF-16 units), embedded documents (element by element: type,
 * then field name, then value; a prefix sorts first), arrays, booleans and Dates. Values of
 * different kinds compare by the server's canonical type order, so a shell's `{t: Infinity}`
 * and a mark `{t, o, v}` order as on the server.
 */

/** A Date from any realm (the driver's, a test runner's). */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** The server's canonical type order for the kinds we hold (docs: "Comparison/Sort Order"). */
function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 1;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    case 'object':
      if (isDate(value)) return 9;
      if (Array.isArray(value)) return 5;
      return 4;
    default:
      throw new TypeError(`no BSON order for a ${typeof value}`);
  }
}

const utf8 = new TextEncoder();

function compareBytes(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const length = Math.min(x.length, y.length);
  for (let i = 0; i < length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareDocuments(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
    const av = a[ak[i]!];
    const bv = b[bk[i]!];
    const byType = typeRank(av) - typeRank(bv);
    if (byType !== 0) return Math.sign(byType);
    const byName = compareBytes(ak[i]!, bk[i]!);
    if (byName !== 0) return Math.sign(byName);
    const byValue = compareBson(av, bv);
    if (byValue !== 0) return byValue;
  }
  return Math.sign(ak.length - bk.length);
}

/** Negative, zero or positive as `a` sorts before, with or after `b` on a MongoDB server. */
export function compareBson(a: unknown, b: unknown): number {
  const byType = typeRank(a) - typeRank(b);
  if (byType !== 0) return Math.sign(byType);
  if (a === undefined || a === null) return 0;
  if (typeof a === 'number') return compareNumbers(a, b as number);
  if (typeof a === 'string') return Math.sign(compareBytes(a, b as string));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (isDate(a)) return Math.sign(a.getTime() - (b as Date).getTime());
  if (Array.isArray(a)) {
    const y = b as unknown[];
    for (let i = 0; i < Math.min(a.length, y.length); i++) {
      const byValue = compareBson(a[i], y[i]);
      if (byValue !== 0) return byValue;
    }
    return Math.sign(a.length - y.length);
  }
  return compareDocuments(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** Whether two values fall in the same comparison bracket (a query operator compares only those). */
export function sameBracket(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b);
}
