import { parsePartitionName, type PartitionRange } from '@tickertape/buckets';
import type {
  CleanupOptions,
  History,
  HistoryRun,
  RunStart,
  RunState,
  ShadowPartition,
  SwapResult,
} from '../port/history.js';
import type { BucketSpan } from '../port/partitions.js';
import { ShadowError, ShadowErrorCode } from '../shadow-error.js';
import { parseShadowName, shadowCollectionName } from '../layout/shadow-names.js';
import { renamedSwap } from '../layout/shadow-plan.js';
import { copy, settle } from './collections.js';
import type { MemoryState, SwapRecord } from './state.js';

function liveRange(part: ShadowPartition): PartitionRange {
  const range = parsePartitionName(part.live);
  if (range === undefined)
    throw new ShadowError(ShadowErrorCode.InvalidShadow, `${part.live} is not a partition name`);
  return range;
}

function replacedOf(part: ShadowPartition): string {
  const parsed = parseShadowName(part.shadow);
  if (parsed === undefined)
    throw new ShadowError(ShadowErrorCode.InvalidShadow, `${part.shadow} is not a shadow name`);
  return shadowCollectionName('replaced', parsed.runId, part.live);
}

const rangeOf = (part: ShadowPartition): BucketSpan => ({ fromMs: part.fromMs, toMs: part.toMs });

/**
 * Runs, shadows, swaps and cleanup over the in-memory collections, step for step as the Mongo
 * store (docs/history.md): the live buckets are saved once before anything live changes, a whole
 * partition is renamed into place, a part of one is swapped bucket by bucket, and every step can
 * be repeated after a failure.
 */
export class MemoryHistory implements History {
  constructor(
    private readonly state: MemoryState,
    private readonly renames: boolean,
  ) {}

  startRun(start: RunStart, nowMs: number): Promise<{ run: HistoryRun; resumed: boolean }> {
    const unfinished = [...this.state.runs.values()]
      .filter(
        (run) =>
          run.kind === start.kind &&
          run.level === start.level &&
          run.fromMs === start.fromMs &&
          run.toMs === start.toMs &&
          run.source === start.source &&
          (run.state === 'running' || run.state === 'swapping'),
      )
      .sort((a, b) => b.startedAtMs - a.startedAtMs)[0];
    if (unfinished) {
      const found = copy(unfinished);
      unfinished.updatedAtMs = nowMs;
      return Promise.resolve({ run: found, resumed: true });
    }
    const run: HistoryRun = {
      id: start.id,
      kind: start.kind,
      level: start.level,
      fromMs: start.fromMs,
      toMs: start.toMs,
      source: start.source,
      state: 'running',
      partitions: [...start.partitions],
      startedAtMs: nowMs,
      updatedAtMs: nowMs,
    };
    return settle(() => {
      if (this.state.runs.has(run.id)) throw new Error(`run ${run.id} exists already`);
      this.state.runs.set(run.id, run);
      return { run: copy(run), resumed: false };
    });
  }

  updateRun(
    id: string,
    nowMs: number,
    patch: { state?: RunState; detail?: string } = {},
  ): Promise<void> {
    const run = this.state.runs.get(id);
    if (run) {
      if (patch.state !== undefined) run.state = patch.state;
      if (patch.detail !== undefined) run.detail = patch.detail;
      run.updatedAtMs = nowMs;
    }
    return Promise.resolve();
  }

  listRuns(): Promise<HistoryRun[]> {
    return Promise.resolve(
      [...this.state.runs.values()].sort((a, b) => a.startedAtMs - b.startedAtMs).map(copy),
    );
  }

  prepareShadow(part: ShadowPartition): Promise<void> {
    return settle(() => {
      liveRange(part);
      this.state.collections.ensure(part.shadow);
    });
  }

  seedShadow(part: ShadowPartition): Promise<number> {
    return settle(() => {
      liveRange(part);
      this.state.collections.ensure(part.shadow);
      return this.copyMissing(part.live, part.shadow, rangeOf(part));
    });
  }

  swapShadow(
    part: ShadowPartition,
    options: { method?: SwapResult['method'] } = {},
  ): Promise<SwapResult> {
    return settle(() => this.swap(part, options.method));
  }

  cleanupReplaced(options: CleanupOptions = {}): Promise<string[]> {
    const nowMs = options.nowMs ?? Date.now();
    const staleBefore = nowMs - (options.abandonedAfterMs ?? 3_600_000);
    const alive = (runId: string) => {
      const run = this.state.runs.get(runId);
      return (
        run !== undefined &&
        (run.state === 'running' || run.state === 'swapping') &&
        run.updatedAtMs >= staleBefore
      );
    };
    const doomed = this.state.collections.names().filter((name) => {
      const parsed = parseShadowName(name);
      if (parsed === undefined || alive(parsed.runId)) return false;
      return parsed.kind === 'replaced' || this.state.runs.has(parsed.runId);
    });
    if (options.dryRun === true) return Promise.resolve(doomed);
    for (const name of doomed) this.state.collections.drop(name);
    const gone = new Set(doomed);
    for (const [shadow, record] of this.state.swaps)
      if (gone.has(shadow) || gone.has(record.replaced)) this.state.swaps.delete(shadow);
    return Promise.resolve(doomed);
  }

  /** Inserts into `into` the buckets of `from` (in `span`) it lacks; returns how many. */
  private copyMissing(from: string, into: string, span?: BucketSpan): number {
    const { collection } = this.state.collections.ensure(into);
    let copied = 0;
    for (const record of this.state.collections.records(from, span)) {
      if (collection.has(record._id)) continue;
      collection.set(record._id, copy(record));
      copied += 1;
    }
    return copied;
  }

  private saveOnce(
    part: ShadowPartition,
    replaced: string,
    method: SwapResult['method'],
    record: SwapRecord | undefined,
    span: BucketSpan | undefined,
  ): number {
    if (record?.state === 'saved') return record.saved;
    const saved = this.copyMissing(part.live, replaced, span);
    this.state.swaps.set(part.shadow, { live: part.live, replaced, state: 'saved', method, saved });
    return saved;
  }

  private markSwapped(part: ShadowPartition): void {
    const record = this.state.swaps.get(part.shadow);
    if (record) record.state = 'swapped';
  }

  private swap(part: ShadowPartition, forced: SwapResult['method'] | undefined): SwapResult {
    const replaced = replacedOf(part);
    const record = this.state.swaps.get(part.shadow);
    const alreadySwapped = (done: SwapRecord): SwapResult => {
      // A resumed swap: the failure may have come between the swap and the bump.
      this.state.bumpGeneration(part.level, Date.now());
      return {
        live: part.live,
        replacedCollection: replaced,
        method: done.method,
        written: 0,
        saved: done.saved,
        deleted: 0,
        resumed: true,
      };
    };
    if (!this.state.collections.has(part.shadow)) {
      if (record === undefined)
        throw new ShadowError(
          ShadowErrorCode.ShadowMissing,
          `${part.shadow} does not exist: nothing to swap into ${part.live}`,
        );
      return alreadySwapped(record);
    }
    if (record?.state === 'swapped') {
      this.state.collections.drop(part.shadow);
      return alreadySwapped(record);
    }
    const method =
      forced ?? record?.method ?? (part.whole && this.renames ? 'rename' : 'documents');
    const result =
      method === 'rename' && part.whole
        ? this.swapByRename(part, replaced, record)
        : this.swapByDocuments(part, replaced, record);
    // The swap rewrote final buckets: readers' caches and ETags of the level must not outlive it.
    this.state.bumpGeneration(part.level, Date.now());
    return result;
  }

  private swapByRename(
    part: ShadowPartition,
    replaced: string,
    record: SwapRecord | undefined,
  ): SwapResult {
    const saved = this.saveOnce(part, replaced, 'rename', record, undefined);
    const written = this.state.collections.records(part.shadow).length;
    this.state.collections.rename(part.shadow, part.live);
    this.markSwapped(part);
    return renamedSwap(part, replaced, written, saved);
  }

  private swapByDocuments(
    part: ShadowPartition,
    replaced: string,
    record: SwapRecord | undefined,
  ): SwapResult {
    const span = rangeOf(part);
    const saved = this.saveOnce(part, replaced, 'documents', record, span);
    const { collection: live } = this.state.collections.ensure(liveRange(part).name);
    const kept = new Set<string>();
    let written = 0;
    for (const bucket of this.state.collections.records(part.shadow, span)) {
      kept.add(bucket._id);
      live.set(bucket._id, copy(bucket));
      written += 1;
    }
    let deleted = 0;
    for (const bucket of this.state.collections.records(part.live, span))
      if (!kept.has(bucket._id) && live.delete(bucket._id)) deleted += 1;
    this.markSwapped(part);
    this.state.collections.drop(part.shadow);
    return {
      live: part.live,
      replacedCollection: replaced,
      method: 'documents',
      written,
      saved,
      deleted,
      resumed: false,
    };
  }
}
