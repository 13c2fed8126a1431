import { describe, expect, it } from '@jest/globals';
import { InFlight } from '../../src/index.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InFlight', () => {
  it('counts unsettled promises, rejected ones included', async () => {
    const inFlight = new InFlight();
    const [a, b] = [deferred(), deferred()];
    inFlight.track(a.promise);
    inFlight.track(b.promise.catch(() => undefined));
    expect(inFlight.size).toBe(2);
    b.reject(new Error('lost'));
    await inFlight.atMost(1);
    expect(inFlight.size).toBe(1);
    a.resolve();
    await inFlight.atMost(0);
    expect(inFlight.size).toBe(0);
  });

  it('does not leave a tracked rejection unhandled', async () => {
    const inFlight = new InFlight();
    inFlight.track(Promise.reject(new Error('tracked')));
    await inFlight.atMost(0);
    expect(inFlight.size).toBe(0);
  });

  it('waits for nothing when already under the limit', async () => {
    await expect(new InFlight().atMost(0)).resolves.toBeUndefined();
  });
});
