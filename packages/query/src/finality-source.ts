import type { ReadSession, RollupStore } from '@tickertape/store';
import { FinalityView } from './watermark-view.js';

/** What a query reads with: the finality it judges by, and the session its reads pass. */
export interface ReadScope {
  view: FinalityView;
  /** A causally consistent session when the store reads from lagging members; none otherwise. */
  session?: ReadSession;
  end(): Promise<void>;
}

interface Read {
  view: FinalityView;
  /** The session the watermarks were read in: the queries' sessions start causally after it. */
  anchor?: ReadSession;
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
 * that member has its last writes. So the watermarks are then read in a session of the store's,
 * and every query reads in a session causally after it: its reads wait until their member has
 * caught up to the watermarks.
 */
export class FinalitySource {
  private cached: { at: number; read: Promise<Read> } | undefined;

  constructor(
    private readonly store: RollupStore,
    private readonly refreshMs: number,
    private readonly now: () => number,
  ) {}

  async current(): Promise<FinalityView> {
    return (await this.latest()).view;
  }

  async begin(): Promise<ReadScope> {
    const { view, anchor } = await this.latest();
    const session = anchor === undefined ? undefined : this.store.beginReads(anchor);
    if (session === undefined) return { view, end: async () => {} };
    return { view, session, end: () => session.end() };
  }

  private latest(): Promise<Read> {
    if (this.refreshMs <= 0) return this.read();
    const t = this.now();
    if (this.cached && t - this.cached.at < this.refreshMs) return this.cached.read;
    const read = this.read();
    const entry = { at: t, read };
    this.cached = entry;
    // A failed read is not kept: the next query tries again.
    read.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return read;
  }

  private async read(): Promise<Read> {
    const anchor = this.store.beginReads();
    if (anchor === undefined) return { view: FinalityView.of(await this.store.readWatermarks()) };
    try {
      return { view: FinalityView.of(await this.store.readWatermarks(anchor)), anchor };
    } finally {
      await anchor.end();
    }
  }
}
