import type { ReadSession, RollupStore } from '@tickertape/store';
import { FinalityView } from './watermark-view.js';

/** What a query reads with: the finality it judges by, and the session its reads pass. */
export interface ReadScope {
  view: FinalityView;
  /** A causally consistent session when the store reads from lagging members; none otherwise. */
  session?: ReadSession;
  end(): Promise<void>;
}

/**
 * The watermarks a reader judges finality by, re-read at most every `refreshMs` (0: per query)
 * and shared by the queries in between: the seed's hot question then costs no round trip for
 * them. A view a moment old is safe: watermarks only move forward, so an old one calls final
 * less than is final; a generation a moment old keeps a cached answer at most `refreshMs` after a
 * rebuild swapped its buckets.
 *
 * Reading away from the primary (the store's `causalReads`: `READ_PREFERENCE` secondary/nearest),
 * a member may lag the one that served the watermarks, and a slot would be called final before
 * that member has its last writes. So every query then reads in a session of the store's,
 * causally after the watermarks the store has read: its reads wait until their member has caught
 * up to them.
 */
export class FinalitySource {
  private cached: { at: number; view: Promise<FinalityView> } | undefined;

  constructor(
    private readonly store: RollupStore,
    private readonly refreshMs: number,
    private readonly now: () => number,
  ) {}

  current(): Promise<FinalityView> {
    if (this.refreshMs <= 0) return this.read();
    const t = this.now();
    if (this.cached && t - this.cached.at < this.refreshMs) return this.cached.view;
    const view = this.read();
    const entry = { at: t, view };
    this.cached = entry;
    // A failed read is not kept: the next query tries again.
    view.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return view;
  }

  async begin(): Promise<ReadScope> {
    const view = await this.current();
    const session = this.store.beginReads();
    if (session === undefined) return { view, end: async () => {} };
    return { view, session, end: () => session.end() };
  }

  private async read(): Promise<FinalityView> {
    return FinalityView.of(await this.store.readWatermarks());
  }
}
