import { partitionOf, type Level } from '@tickertape/buckets';
import { MongoBulkWriteError, type Db, type Document } from 'mongodb';
import { shellDocument, type ShellDocument } from '../layout/shells.js';
import type { ShellRequest, ShellSeries } from '../port/upkeep.js';
import type { Dialect } from './capabilities.js';
import { ensurePartition } from './partitions.js';
import { DUPLICATE_KEY, writeErrorsOf } from './transient.js';

/**
 * Inserts shells where no bucket exists yet and returns how many went in. An existing `_id` —
 * a worker got there first — fails that insert alone (E11000), so a shell never overwrites data.
 * Counted from the write errors: mongo-java-server over-reports `insertedCount` (docs/local-stack.md).
 */
export async function insertShells(
  db: Db,
  level: Level,
  requests: readonly ShellRequest[],
): Promise<number> {
  const byCollection = new Map<string, ShellDocument[]>();
  for (const request of requests) {
    const shell = shellDocument(level, request.series, request.start, request.compact);
    const group = byCollection.get(shell.collection);
    if (group) group.push(shell);
    else byCollection.set(shell.collection, [shell]);
  }
  let inserted = 0;
  for (const [collection, group] of byCollection) {
    await ensurePartition(db, partitionOf(level, (group[0]!.doc.start as Date).getTime()));
    try {
      await db.collection<Document>(collection).insertMany(
        group.map((s) => s.doc),
        { ordered: false },
      );
      inserted += group.length;
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError)) throw err;
      const errors = writeErrorsOf(err);
      // No per-document errors: the insert failed as a whole (see applyFlush).
      if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
      inserted += group.length - errors.length;
    }
  }
  return inserted;
}

interface RecentRow {
  series: string;
  metric: string;
  tags: Record<string, string>;
  fields: string[];
}

/** FerretDB has no `$map`: the `f` maps travel whole and their keys are taken here. */
async function* seriesKeysHere(db: Db, name: string, match: Document): AsyncGenerator<RecentRow> {
  const cursor = db
    .collection<Document>(name)
    .find(match, { projection: { _id: 0, series: 1, metric: 1, tags: 1, f: 1 } });
  for await (const doc of cursor)
    yield {
      series: doc.series as string,
      metric: doc.metric as string,
      tags: doc.tags as Record<string, string>,
      fields: Object.keys((doc.f as Document | undefined) ?? {}),
    };
}

/**
 * Series with a bucket of `level` starting in [sinceMs, untilMs], with the numeric fields they
 * used: what the next slot's shells should prepare. Only names travel back — the server lists
 * each bucket's field names — so this stays cheap however full the buckets are.
 */
export async function recentSeries(
  db: Db,
  level: Level,
  sinceMs: number,
  untilMs: number,
  dialect: Dialect = 'mongodb',
): Promise<ShellSeries[]> {
  const names = new Set([partitionOf(level, sinceMs).name, partitionOf(level, untilMs).name]);
  const found = new Map<string, ShellSeries & { fieldSet: Set<string> }>();
  for (const name of names) {
    const match = { start: { $gte: new Date(sinceMs), $lte: new Date(untilMs) }, n: { $gt: 0 } };
    const cursor =
      dialect === 'ferretdb'
        ? seriesKeysHere(db, name, match)
        : db.collection<Document>(name).aggregate<RecentRow>([
            { $match: match },
            {
              $project: {
                _id: 0,
                series: 1,
                metric: 1,
                tags: 1,
                fields: { $map: { input: { $objectToArray: '$f' }, in: '$$this.k' } },
              },
            },
          ]);
    for await (const row of cursor) {
      const seen = found.get(row.series) ?? {
        seriesKey: row.series,
        metric: row.metric,
        tags: row.tags,
        fields: [],
        fieldSet: new Set<string>(),
      };
      for (const field of row.fields) seen.fieldSet.add(field);
      found.set(row.series, seen);
    }
  }
  return [...found.values()].map(({ fieldSet, ...series }) => ({
    ...series,
    fields: [...fieldSet].sort(),
  }));
}
