import { isSlotFinal, type Level } from '@tickertape/buckets';
import { readWatermarks } from '@tickertape/store';
import type { Db } from 'mongodb';

/** Finality as readers see it: a slot is final once its level's watermark has passed its end. */
export class FinalityView {
  private constructor(readonly marks: Readonly<Partial<Record<Level, number>>>) {}

  static async read(db: Db): Promise<FinalityView> {
    return new FinalityView(await readWatermarks(db));
  }

  /** No watermark yet (no scheduler has run): nothing is known final. */
  isFinal(level: Level, slotStartMs: number): boolean {
    const mark = this.marks[level];
    return mark !== undefined && isSlotFinal(level, slotStartMs, mark);
  }

  finalBefore(level: Level): number | null {
    return this.marks[level] ?? null;
  }
}
