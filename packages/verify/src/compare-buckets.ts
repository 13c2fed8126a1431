import type { Level } from '@tickertape/buckets';
import { withoutShellPadding } from '@tickertape/store';
import { compareDocuments } from './compare-documents.js';
import type { Difference } from './truth.js';

/** A stored bucket as compared: `_id` is the identity, a shell's untouched padding is not data. */
function comparable(stored: Record<string, unknown>): Record<string, unknown> {
  const { _id: _ignored, ...rest } = withoutShellPadding(stored);
  return rest;
}

/**
 * Differences between the buckets the ticks make and the buckets stored for one level: a bucket
 * the ticks make that is absent (or still an empty shell) is `missing`; a stored bucket with data
 * that no tick makes is `extra`; every other disagreement is `wrong`, one per field.
 */
export function compareBuckets(
  level: Level,
  expected: ReadonlyMap<string, Record<string, unknown>>,
  stored: ReadonlyMap<string, Record<string, unknown>>,
): Difference[] {
  const differences: Difference[] = [];
  for (const [id, want] of expected) {
    const got = stored.get(id);
    if (got === undefined || got.n === 0) {
      differences.push({ store: level, kind: 'missing', id, expected: want.n, actual: got?.n });
      continue;
    }
    differences.push(...compareDocuments(level, id, want, comparable(got)));
  }
  for (const [id, got] of stored) {
    if (!expected.has(id) && got.n !== 0) {
      differences.push({ store: level, kind: 'extra', id, actual: got.n });
    }
  }
  return differences;
}
