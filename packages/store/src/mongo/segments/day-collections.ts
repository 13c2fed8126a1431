import { parseSegmentCollection } from '@tickertape/segments';
import type { Db } from 'mongodb';

const NAMESPACE_EXISTS = 48;

/**
 * Index names are fixed (never redefine an index under an existing name: docs/local-stack.md).
 * `_id` already serves a series' segments in time order; `start` serves retention and scans.
 */
export const SEGMENT_INDEXES = [{ name: 'start_1', key: { start: 1 } }] as const;

/** Creates a day's segment collection with its indexes; safe to repeat and to race. */
export async function ensureSegmentCollection(db: Db, name: string): Promise<void> {
  await db.createCollection(name).catch((err: unknown) => {
    if ((err as { code?: unknown }).code !== NAMESPACE_EXISTS) throw err;
  });
  await db
    .collection(name)
    .createIndexes(SEGMENT_INDEXES.map(({ name: n, key }) => ({ name: n, key: { ...key } })));
}

/** Days with a segment collection, oldest first (names filtered here: the stand-in ignores filters). */
export async function listSegmentDays(db: Db): Promise<string[]> {
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  return collections
    .map((c) => parseSegmentCollection(c.name))
    .filter((day) => day !== undefined)
    .sort();
}
