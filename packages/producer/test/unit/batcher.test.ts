import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Batcher } from '../../src/batcher.js';

interface Call {
  items: number[];
  resolve: () => void;
  reject: (err: Error) => void;
}

/** A `send` whose batches stay in flight until the test settles them. */
function controlledSend() {
  const calls: Call[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const done = () => (inFlight -= 1);
      calls.push({
        items,
        resolve: () => {
          done();
          resolve();
        },
        reject: (err) => {
          done();
          reject(err);
        },
      });
    });
  return { calls, send, maxInFlight: () => maxInFlight };
}

function outcome(promise: Promise<void>) {
  const state: { value: 'pending' | 'resolved' | Error } = { value: 'pending' };
  promise.then(
    () => (state.value = 'resolved'),
    (err: Error) => (state.value = err),
  );
  return state;
}

describe('Batcher', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends a batch the moment it holds maxItems, without waiting for the linger', () => {
    const { calls, send } = controlledSend();
    const batcher = new Batcher({ maxItems: 3, lingerMs: 1000, send });
    for (const item of [1, 2, 3]) void batcher.add(item);
    expect(calls.map((call) => call.items)).toEqual([[1, 2, 3]]);
  });

  it('sends a partial batch once its oldest item has waited lingerMs', async () => {
    const { calls, send } = controlledSend();
    const batcher = new Batcher({ maxItems: 10, lingerMs: 20, send });
    void batcher.add(1);
    await jest.advanceTimersByTimeAsync(10);
    void batcher.add(2);
    await jest.advanceTimersByTimeAsync(9);
    expect(calls).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.items)).toEqual([[1, 2]]);
  });

  it('keeps one batch in flight and fills the next meanwhile, in order', async () => {
    const { calls, send, maxInFlight } = controlledSend();
    const batcher = new Batcher({ maxItems: 3, lingerMs: 20, send });
    const acks = [1, 2, 3, 4, 5, 6, 7, 8].map((item) => outcome(batcher.add(item)));
    expect(calls).toHaveLength(1);
    expect(batcher.inFlight).toBe(3);
    expect(batcher.buffered).toBe(5);

    calls[0]!.resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(acks.map((ack) => ack.value)).toEqual([
      ...Array<string>(3).fill('resolved'),
      ...Array<string>(5).fill('pending'),
    ]);
    expect(calls.map((call) => call.items)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    calls[1]!.resolve();
    await jest.advanceTimersByTimeAsync(20);
    expect(calls.map((call) => call.items)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8],
    ]);
    calls[2]!.resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(acks.every((ack) => ack.value === 'resolved')).toBe(true);
    expect(maxInFlight()).toBe(1);
  });

  it("rejects every item of a failed batch with its error, and only that batch's", async () => {
    const { calls, send } = controlledSend();
    const batcher = new Batcher({ maxItems: 2, lingerMs: 20, send });
    const acks = [1, 2, 3, 4].map((item) => outcome(batcher.add(item)));
    const failure = new Error('broker said no');
    calls[0]!.reject(failure);
    await jest.advanceTimersByTimeAsync(0);
    calls[1]!.resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(acks.map((ack) => ack.value)).toEqual([failure, failure, 'resolved', 'resolved']);
  });

  it('flush sends at once and resolves when everything added before it has settled', async () => {
    const { calls, send } = controlledSend();
    const batcher = new Batcher({ maxItems: 2, lingerMs: 10_000, send });
    const acks = [1, 2, 3].map((item) => outcome(batcher.add(item)));
    const flushed = outcome(batcher.flush());
    const late = outcome(batcher.add(4)); // added after the flush: not waited for
    calls[0]!.resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(flushed.value).toBe('pending');
    calls[1]!.reject(new Error('lost'));
    await jest.advanceTimersByTimeAsync(0);
    // A flush never rejects: each item's promise carries its own failure.
    expect(flushed.value).toBe('resolved');
    expect(acks[2]!.value).toBeInstanceOf(Error);
    expect(late.value).toBeInstanceOf(Error);
  });

  it('resolves a flush with nothing buffered at once', async () => {
    const { calls, send } = controlledSend();
    const batcher = new Batcher({ maxItems: 2, lingerMs: 10, send });
    await expect(batcher.flush()).resolves.toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  it('turns a send that throws synchronously into rejected items', async () => {
    const batcher = new Batcher<number>({
      maxItems: 1,
      lingerMs: 0,
      send: () => {
        throw new Error('not connected');
      },
    });
    await expect(batcher.add(1)).rejects.toThrow('not connected');
  });

  it.each([
    [0, 1, /maxItems/],
    [1.5, 1, /maxItems/],
    [1, -1, /lingerMs/],
    [1, Number.NaN, /lingerMs/],
  ])('refuses maxItems %p with lingerMs %p', (maxItems, lingerMs, message) => {
    expect(() => new Batcher({ maxItems, lingerMs, send: () => Promise.resolve() })).toThrow(
      message,
    );
  });
});
