export interface BatcherOptions<T> {
  /** A batch leaves as soon as it holds this many items. */
  maxItems: number;
  /** …or once its oldest item has waited this long, whichever comes first. */
  lingerMs: number;
  /**
   * Delivers one batch; its outcome settles every item in it. Never called while the previous
   * call is still running, so at most one batch is in flight.
   */
  send: (items: T[]) => Promise<void>;
}

interface Entry<T> {
  item: T;
  addedAt: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface FlushWaiter {
  /** Resolves once this many items (counted from the start) have settled. */
  until: number;
  resolve: () => void;
}

/**
 * Groups items into batches by count or linger, whichever first, and sends them one batch at a
 * time, in the order they were added. While a batch is in flight the next one keeps filling,
 * so a slow broker gets fuller batches rather than more of them. Knows nothing of Kafka: the
 * TickProducer gives it a `send` that calls kafkajs.
 */
export class Batcher<T> {
  private readonly buffer: Entry<T>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private added = 0;
  private settled = 0;
  /** Items up to this count leave without waiting for their linger (a flush asked for them). */
  private flushUntil = 0;
  private inFlightCount = 0;
  private readonly waiters: FlushWaiter[] = [];

  constructor(private readonly options: BatcherOptions<T>) {
    if (!Number.isInteger(options.maxItems) || options.maxItems < 1) {
      throw new RangeError(`maxItems must be a positive integer, not ${options.maxItems}`);
    }
    if (!(options.lingerMs >= 0)) {
      throw new RangeError(`lingerMs must be zero or more, not ${options.lingerMs}`);
    }
  }

  /** Items waiting for their batch to leave. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Items in the batch being sent. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Resolves when the item's batch was delivered, rejects with the batch's error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.buffer.push({ item, addedAt: Date.now(), resolve, reject });
      this.added += 1;
      this.schedule();
    });
  }

  /**
   * Sends everything added so far without waiting for the linger, and resolves once all of it
   * has settled. Never rejects: each item's own promise carries its failure.
   */
  flush(): Promise<void> {
    const until = this.added;
    if (this.settled >= until) return Promise.resolve();
    this.flushUntil = Math.max(this.flushUntil, until);
    const done = new Promise<void>((resolve) => this.waiters.push({ until, resolve }));
    this.schedule();
    return done;
  }

  private isDue(): boolean {
    const oldest = this.buffer[0];
    if (oldest === undefined) return false;
    return (
      this.buffer.length >= this.options.maxItems ||
      this.settled < this.flushUntil ||
      Date.now() - oldest.addedAt >= this.options.lingerMs
    );
  }

  private schedule(): void {
    if (this.draining) return; // the drain loop looks again after each batch
    if (this.isDue()) {
      this.clearTimer();
      void this.drain();
      return;
    }
    const oldest = this.buffer[0];
    if (oldest !== undefined && this.timer === undefined) {
      const wait = Math.max(0, this.options.lingerMs - (Date.now() - oldest.addedAt));
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
    }
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.isDue()) {
        const batch = this.buffer.splice(0, this.options.maxItems);
        this.inFlightCount = batch.length;
        try {
          await this.options.send(batch.map((entry) => entry.item));
          for (const entry of batch) entry.resolve();
        } catch (err) {
          for (const entry of batch) entry.reject(err);
        }
        this.inFlightCount = 0;
        this.settled += batch.length;
        this.wakeWaiters();
      }
    } finally {
      this.draining = false;
    }
    this.schedule();
  }

  private wakeWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.waiters[i]!;
      if (waiter.until <= this.settled) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
