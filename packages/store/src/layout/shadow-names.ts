import { randomBytes } from 'node:crypto';

/**
 * Names of the collections a rebuild or a backfill prepares beside a live partition:
 * `shadow_<runId>_<partition>` (the replacement being built) and `replaced_<runId>_<partition>`
 * (the buckets the swap took out). Neither starts with `rollup_`, so listPartitionNames,
 * parsePartitionName, the readers, the checker and retention never take them for partitions.
 */
export type ShadowKind = 'shadow' | 'replaced';

/** Letters, digits and `-`: no `_`, which separates the parts of a name. */
const RUN_ID = /^[A-Za-z0-9-]{1,48}$/;
const NAME = /^(shadow|replaced)_([A-Za-z0-9-]{1,48})_(rollup_.+)$/;

export function isRunId(text: string): boolean {
  return RUN_ID.test(text);
}

/** `20261121T105512-3f9a`: sorts by start time, unique enough for runs started by people. */
export function newRunId(nowMs: number): string {
  const time = new Date(nowMs).toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${time}-${randomBytes(2).toString('hex')}`;
}

export function shadowCollectionName(kind: ShadowKind, runId: string, live: string): string {
  if (!isRunId(runId))
    throw new RangeError(`run id ${JSON.stringify(runId)} is not [A-Za-z0-9-]{1,48}`);
  return `${kind}_${runId}_${live}`;
}

/** Reads a shadow or replaced collection's name back; `undefined` for any other name. */
export function parseShadowName(
  name: string,
): { kind: ShadowKind; runId: string; live: string } | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  return { kind: match[1] as ShadowKind, runId: match[2]!, live: match[3]! };
}
