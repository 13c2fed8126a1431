import { describe, expect, it } from '@jest/globals';
import { MongoServerError } from 'mongodb';
import { boundOptions, boundRead, readFailure } from '../../src/mongo/read-bounds.js';
import { ReadAbortedError, StoreErrorCode, isReadTimeout } from '../../src/store-error.js';

const maxTimeExpired = () =>
  new MongoServerError({
    ok: 0,
    code: 50,
    codeName: 'MaxTimeMSExpired',
    errmsg: 'operation exceeded time limit',
  });

describe('read bounds', () => {
  it('puts only the bounds given into the driver options', () => {
    const { signal } = new AbortController();
    expect(boundOptions({})).toEqual({});
    expect(boundOptions({ maxTimeMS: 250 })).toEqual({ maxTimeMS: 250 });
    expect(boundOptions({ signal, maxTimeMS: 250 })).toEqual({ signal, maxTimeMS: 250 });
  });

  it('types MaxTimeMSExpired as a retriable ReadTimeoutError naming the budget', () => {
    const failure = readFailure(maxTimeExpired(), { maxTimeMS: 250 });
    expect(isReadTimeout(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: StoreErrorCode.ReadTimeout,
      retriable: true,
      budgetMs: 250,
    });
    expect((failure as Error).message).toContain('250 ms');
    expect((failure as Error).cause).toBeInstanceOf(MongoServerError);
  });

  it('says why the reads stop when the signal aborted, whatever the driver threw', () => {
    const controller = new AbortController();
    const reason = new ReadAbortedError('the client went away');
    controller.abort(reason);
    expect(readFailure(new Error('socket closed'), { signal: controller.signal })).toBe(reason);
  });

  it('passes other failures through untouched', () => {
    const other = new MongoServerError({ ok: 0, code: 2, codeName: 'BadValue', errmsg: 'bad' });
    expect(readFailure(other, { maxTimeMS: 250 })).toBe(other);
  });

  it('does not start a read once the signal has aborted', async () => {
    const controller = new AbortController();
    controller.abort(new ReadAbortedError('gone'));
    let started = false;
    await expect(
      boundRead({ signal: controller.signal }, () => {
        started = true;
        return Promise.resolve(1);
      }),
    ).rejects.toMatchObject({ code: StoreErrorCode.ReadAborted });
    expect(started).toBe(false);
  });
});
