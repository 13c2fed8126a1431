import { nextPartition, partitionOf, type Level } from '@tickertape/buckets';
import type { ShadowPartition, SwapResult } from '../port/history.js';
import { ShadowError, ShadowErrorCode } from '../shadow-error.js';
import { parseShadowName, shadowCollectionName } from './shadow-names.js';

/** One partition per partition of `level` the range `[fromMs, toMs)` overlaps, clipped to it. */
export function shadowPlan(
  level: Level,
  fromMs: number,
  toMs: number,
  runId: string,
): ShadowPartition[] {
  if (!(Number.isSafeInteger(fromMs) && Number.isSafeInteger(toMs) && fromMs < toMs))
    throw new ShadowError(
      ShadowErrorCode.InvalidShadow,
      `empty or invalid range [${fromMs}, ${toMs})`,
    );
  const plan: ShadowPartition[] = [];
  for (let p = partitionOf(level, fromMs); p.startMs < toMs; p = nextPartition(p)) {
    const from = Math.max(fromMs, p.startMs);
    const to = Math.min(toMs, p.endMs);
    plan.push({
      level,
      live: p.name,
      shadow: shadowCollectionName('shadow', runId, p.name),
      fromMs: from,
      toMs: to,
      whole: from === p.startMs && to === p.endMs,
    });
  }
  return plan;
}

/** The collection a swap of `part` saves the live buckets in. */
export function replacedCollectionOf(part: ShadowPartition): string {
  const parsed = parseShadowName(part.shadow);
  if (parsed === undefined)
    throw new ShadowError(ShadowErrorCode.InvalidShadow, `${part.shadow} is not a shadow name`);
  return shadowCollectionName('replaced', parsed.runId, part.live);
}

/** What a swap by one rename did: the shadow's buckets became the partition, nothing deleted. */
export function renamedSwap(
  part: ShadowPartition,
  replaced: string,
  written: number,
  saved: number,
): SwapResult {
  return {
    live: part.live,
    replacedCollection: replaced,
    method: 'rename',
    written,
    saved,
    deleted: 0,
    resumed: false,
  };
}
