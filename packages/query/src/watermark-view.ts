import { LEVELS, isSlotFinal, type Level } from '@tickertape/buckets';
import type { WatermarkState } from '@tickertape/store';

/** Finality as readers see it: a slot is final once its level's watermark has passed its end. */
export class FinalityView {
  /** The generations of every level in one string: what a cached answer's key carries. */
  readonly generationKey: string;

  private constructor(private readonly state: WatermarkState) {
    this.generationKey = LEVELS.map((level) => state.generation[level]).join('.');
  }

  static of(state: WatermarkState): FinalityView {
    return new FinalityView(state);
  }

  get marks(): Readonly<Partial<Record<Level, number>>> {
    return this.state.finalBefore;
  }

  /** No watermark yet (no scheduler has run): nothing is known final. */
  isFinal(level: Level, slotStartMs: number): boolean {
    const mark = this.state.finalBefore[level];
    return mark !== undefined && isSlotFinal(level, slotStartMs, mark);
  }

  finalBefore(level: Level): number | null {
    return this.state.finalBefore[level] ?? null;
  }

  /** Changes whenever final buckets of the level change (a swap, a retention drop). */
  generation(level: Level): number {
    return this.state.generation[level];
  }
}
