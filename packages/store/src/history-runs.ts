import type { Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';

/**
 * One document per rebuild or backfill run, so a run killed half-way can be resumed (its shadow
 * collections are kept and refilled idempotently) and `cleanupReplaced` knows which shadows
 * belong to a run that is over.
 */
export const HISTORY_RUNS_COLLECTION = 'rebuilds';

/** `running` folds into shadows, `swapping` puts them in place; `done`, `failed` are final. */
export type RunState = 'running' | 'swapping' | 'done' | 'failed';

export interface HistoryRun {
  _id: string;
  kind: 'rebuild' | 'backfill';
  level: Level;
  from: Date;
  to: Date;
  /** Where the buckets come from: `topic`, a level, a file… */
  source: string;
  state: RunState;
  /** The live partitions the run replaces, by name. */
  partitions: string[];
  startedAt: Date;
  updatedAt: Date;
  detail?: string;
}

export interface RunStart {
  id: string;
  kind: HistoryRun['kind'];
  level: Level;
  fromMs: number;
  toMs: number;
  source: string;
  partitions: string[];
}

const collection = (db: Db) => db.collection<HistoryRun>(HISTORY_RUNS_COLLECTION);

/**
 * Records a run, or resumes the unfinished one of the same kind, level, range and source (its
 * id, hence its shadows, are reused). Returns the run as recorded.
 */
export async function startRun(
  db: Db,
  start: RunStart,
  nowMs: number,
): Promise<{ run: HistoryRun; resumed: boolean }> {
  const unfinished = await collection(db).findOne(
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
    await collection(db).updateOne(
      { _id: unfinished._id },
      { $set: { updatedAt: new Date(nowMs) } },
    );
    return { run: unfinished, resumed: true };
  }
  const run: HistoryRun = {
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
  await collection(db).insertOne(run);
  return { run, resumed: false };
}

/** Moves a run on (or just marks it alive: a run not updated for long counts as abandoned). */
export async function updateRun(
  db: Db,
  id: string,
  nowMs: number,
  patch: { state?: RunState; detail?: string } = {},
): Promise<void> {
  await collection(db).updateOne({ _id: id }, { $set: { ...patch, updatedAt: new Date(nowMs) } });
}

export async function listRuns(db: Db): Promise<HistoryRun[]> {
  return collection(db).find().sort({ startedAt: 1 }).toArray();
}
