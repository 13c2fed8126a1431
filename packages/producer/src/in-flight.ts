/**
 * Counts promises that have not settled yet, so a caller that does not await each send (a load
 * generator, a file publisher) can hold the count under a bound and wait for zero at the end.
 * Track a promise after attaching your own handlers: they then run before the count drops.
 */
export class InFlight {
  private count = 0;
  private wake: (() => void) | undefined;

  get size(): number {
    return this.count;
  }

  track(promise: Promise<unknown>): void {
    this.count += 1;
    const settled = () => {
      this.count -= 1;
      this.wake?.();
    };
    promise.then(settled, settled);
  }

  /** Resolves once at most `limit` tracked promises are unsettled. */
  async atMost(limit: number): Promise<void> {
    while (this.count > limit) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
  }
}
