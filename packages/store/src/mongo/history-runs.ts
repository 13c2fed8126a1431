import type { Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import type { HistoryRun, RunStart, RunState } from '../port/history.js';

/**
 * One document per rebuild or backfill run, so a run killed half-way can be resumed (its shadow
 * collections are kept and refilled idempotently) and `cleanupReplaced` knows which shadows
 * belong to a run that is over.
 */
export const HISTORY_RUNS_COLLECTION = 'rebuilds';

/** A run as stored: dates as dates, so an operator reads them in mongosh. */
export interface RunDocument {
  _id: string;
  kind: HistoryRun['kind'];
  level: Level;
  from: Date;
  to: Date;
  source: string;
  state: RunState;
  partitions: string[];
  startedAt: Date;
  updatedAt: Date;
  detail?: string;
}

export const runsOf = (db: Db) => db.collection<RunDocument>(HISTORY_RUNS_COLLECTION);

function runOf(doc: RunDocument): HistoryRun {
  return {
    id: doc._id,
    kind: doc.kind,
    level: doc.level,
    fromMs: doc.from.getTime(),
    toMs: doc.to.getTime(),
    source: doc.source,
    state: doc.state,
    partitions: doc.partitions,
    startedAtMs: doc.startedAt.getTime(),
    updatedAtMs: doc.updatedAt.getTime(),
    ...(doc.detail === undefined ? {} : { detail: doc.detail }),
  };
}

/**
 * Records a run, or resumes the unfinished one of the same kind, level, range and source (its
 * id, hence its shadows, are reused). Returns the run as recorded.
 */
export async function startRun(
  db: Db,
  start: RunStart,
  nowMs: number,
): Promise<{ run: HistoryRun; resumed: boolean }> {
  const unfinished = await runsOf(db).findOne(
    {
      kind: start.kind,
      level: start.level,
      from: new Date(start.fromMs),
      to: new Date(start.toMs),
      source: start.source,
      state: { $in: ['running', 'swapping'] },
    },
    { sort: { startedAt: -1 } },
  );
  if (unfinished) {
    await runsOf(db).updateOne({ _id: unfinished._id }, { $set: { updatedAt: new Date(nowMs) } });
    return { run: runOf(unfinished), resumed: true };
  }
  const doc: RunDocument = {
    _id: start.id,
    kind: start.kind,
    level: start.level,
    from: new Date(start.fromMs),
    to: new Date(start.toMs),
    source: start.source,
    state: 'running',
    partitions: start.partitions,
    startedAt: new Date(nowMs),
    updatedAt: new Date(nowMs),
  };
  await runsOf(db).insertOne(doc);
  return { run: runOf(doc), resumed: false };
}

/** Moves a run on (or just marks it alive: a run not updated for long counts as abandoned). */
export async function updateRun(
  db: Db,
  id: string,
  nowMs: number,
  patch: { state?: RunState; detail?: string } = {},
): Promise<void> {
  await runsOf(db).updateOne({ _id: id }, { $set: { ...patch, updatedAt: new Date(nowMs) } });
}

export async function listRuns(db: Db): Promise<HistoryRun[]> {
  return (await runsOf(db).find().sort({ startedAt: 1 }).toArray()).map(runOf);
}
