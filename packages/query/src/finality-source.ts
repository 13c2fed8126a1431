import { readWatermarkState } from '@tickertape/store';
import type { ClientSession, Db } from 'mongodb';
import { FinalityView } from './watermark-view.js';

/** What a query reads with: the finality it judges by, and the options its reads pass. */
export interface ReadScope {
  view: FinalityView;
  /** A causally consistent session on a replica set read away from the primary; none otherwise. */
  session?: ClientSession;
  end(): Promise<void>;
}

/**
 * The watermarks a reader judges finality by, re-read at most every `refreshMs` (0: per query)
 * and shared by the queries in between: the seed's hot question then costs no round trip for
 * them. A view a moment old is safe: watermarks only move forward, so an old one calls final
 * less than is final; a generation a moment old keeps a cached answer at most `refreshMs` after a
 * rebuild swapped its buckets.
 *
 * Reading away from the primary (`READ_PREFERENCE` secondary/nearest), a member may lag the one
 * that served the watermarks, and a slot would be called final before that member has its last
 * writes. So every query then reads in a causally consistent session advanced to the watermarks'
 * operation time: its reads wait until their member has caught up to it.
 */
export class FinalitySource {
  private cached: { at: number; view: Promise<FinalityView> } | undefined;
  private readonly causal: boolean;

  constructor(
    private readonly db: Db,
    private readonly refreshMs: number,
    private readonly now: () => number,
  ) {
    this.causal = db.readPreference.mode !== 'primary';
  }

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
    if (!this.causal || view.operationTime === undefined) return { view, end: async () => {} };
    const session = this.db.client.startSession({ causalConsistency: true });
    session.advanceOperationTime(view.operationTime);
    return { view, session, end: () => session.endSession() };
  }

  private async read(): Promise<FinalityView> {
    if (!this.causal) return FinalityView.of(await readWatermarkState(this.db));
    const session = this.db.client.startSession({ causalConsistency: true });
    try {
      return FinalityView.of(await readWatermarkState(this.db, session));
    } finally {
      await session.endSession();
    }
  }
}
