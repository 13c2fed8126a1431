import { describe, expect, it } from '@jest/globals';
import { seriesKey, type Tick } from '@tickertape/tick';
import { createProfile, runLoad, type TickSink } from '../../src/index.js';

const T0 = Date.UTC(2026, 10, 21, 12);

/** A clock that only moves when the runner sleeps: runs are exact and instant. */
function fakeTime() {
  const time = { now: T0 };
  return {
    time,
    clock: () => time.now,
    sleep: (ms: number) => {
      time.now += ms;
      return Promise.resolve();
    },
  };
}

/** Records every tick; `fail(i)` says which (0-based) sends reject. */
class RecordingSink implements TickSink {
  readonly ticks: Tick[] = [];
  flushes = 0;
  constructor(private readonly fail: (index: number) => boolean = () => false) {}

  send(tick: Tick): Promise<void> {
    const index = this.ticks.push(tick) - 1;
    return this.fail(index) ? Promise.reject(new Error(`tick ${index} lost`)) : Promise.resolve();
  }

  flush(): Promise<void> {
    this.flushes += 1;
    return Promise.resolve();
  }
}

/** Settles sends only on the next turn of the event loop, and tracks how many were open. */
class SlowSink implements TickSink {
  open = 0;
  maxOpen = 0;
  sent = 0;

  send(): Promise<void> {
    this.open += 1;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    return new Promise((resolve) =>
      setImmediate(() => {
        this.open -= 1;
        this.sent += 1;
        resolve();
      }),
    );
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }
}

describe('runLoad', () => {
  it('sends rate × duration ticks on schedule, stamped with the clock, evenly over series', async () => {
    const { clock, sleep } = fakeTime();
    const sink = new RecordingSink();
    const profile = createProfile('traffic', { series: 4, seed: 1 });
    const summary = await runLoad(sink, profile, {
      ratePerSec: 100,
      durationMs: 2000,
      clock,
      sleep,
    });

    expect(sink.ticks).toHaveLength(200);
    // Tick i is due i/rate seconds in: every 10 ms at 100/s.
    expect(sink.ticks.map((t) => t.ts)).toEqual(sink.ticks.map((_, i) => T0 + i * 10));
    expect(summary).toMatchObject({
      profile: 'traffic',
      total: 200,
      generated: 200,
      acknowledged: 200,
      failed: 0,
      aborted: false,
    });
    expect(summary.elapsedMs).toBe(1990);
    expect(summary.achievedRate).toBeCloseTo(200 / 1.99, 6);
    expect([...summary.perSeries.values()]).toEqual([50, 50, 50, 50]);
    expect([...summary.perSeries.keys()]).toEqual(
      profile.series.map((s) => seriesKey(s.metric, s.tags)),
    );
    expect(sink.flushes).toBe(1);
    expect(summary.firstError).toBeUndefined();
  });

  it('counts failed ticks apart from acknowledged ones and keeps the first error', async () => {
    const { clock, sleep } = fakeTime();
    const sink = new RecordingSink((i) => i % 10 === 3);
    const summary = await runLoad(sink, createProfile('stocks', { series: 2, seed: 1 }), {
      ratePerSec: 50,
      durationMs: 1000,
      clock,
      sleep,
    });
    expect(summary).toMatchObject({ generated: 50, acknowledged: 45, failed: 5 });
    expect(summary.firstError).toEqual(new Error('tick 3 lost'));
    expect([...summary.perSeries.values()].reduce((a, b) => a + b, 0)).toBe(45);
  });

  it('never has more than maxPending ticks open, however far behind it is', async () => {
    const { clock, sleep } = fakeTime();
    const sink = new SlowSink();
    const summary = await runLoad(sink, createProfile('stocks', { series: 3, seed: 2 }), {
      ratePerSec: 100_000,
      durationMs: 50,
      maxPending: 40,
      clock,
      sleep,
    });
    expect(summary.acknowledged).toBe(5000);
    expect(sink.sent).toBe(5000);
    expect(sink.maxOpen).toBeLessThanOrEqual(40);
  });

  it('stops generating when aborted, and still flushes and counts what it sent', async () => {
    const { clock, sleep } = fakeTime();
    const sink = new RecordingSink();
    const controller = new AbortController();
    const summary = await runLoad(sink, createProfile('stocks', { series: 2, seed: 1 }), {
      ratePerSec: 100,
      durationMs: 10_000,
      clock,
      sleep,
      signal: controller.signal,
      onProgress: ({ generated }) => {
        if (generated >= 25) controller.abort();
      },
    });
    expect(summary.aborted).toBe(true);
    expect(summary.generated).toBe(25);
    expect(summary.acknowledged).toBe(25);
    expect(sink.flushes).toBe(1);
  });

  it('reports progress up to the total', async () => {
    const { clock, sleep } = fakeTime();
    const seen: number[] = [];
    await runLoad(new RecordingSink(), createProfile('stocks', { series: 1, seed: 1 }), {
      ratePerSec: 10,
      durationMs: 1000,
      clock,
      sleep,
      onProgress: ({ generated, total }) => {
        expect(total).toBe(10);
        seen.push(generated);
      },
    });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(10);
  });

  it.each([
    [{ ratePerSec: 0, durationMs: 1000 }, /rate/],
    [{ ratePerSec: Number.POSITIVE_INFINITY, durationMs: 1000 }, /rate/],
    [{ ratePerSec: 10, durationMs: -1 }, /duration/],
  ])('refuses %p', async (options, message) => {
    await expect(
      runLoad(new RecordingSink(), createProfile('stocks', { series: 1, seed: 1 }), options),
    ).rejects.toThrow(message);
  });
});
