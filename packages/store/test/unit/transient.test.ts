import { describe, expect, it } from '@jest/globals';
import { MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb';
import { isTransientMongoError } from '../../src/mongo/transient.js';

const serverError = (code: number) => new MongoServerError({ code, errmsg: `code ${code}`, ok: 0 });

describe('isTransientMongoError', () => {
  it.each([
    ['a closed connection', true, new MongoNetworkError('connection 3 to 127.0.0.1:27117 closed')],
    ['ShutdownInProgress', true, serverError(91)],
    ['InterruptedAtShutdown', true, serverError(11600)],
    ['PrimarySteppedDown', true, serverError(189)],
    ['NotWritablePrimary', true, serverError(10107)],
    ['DuplicateKey', false, serverError(11000)],
    ['Unauthorized', false, serverError(13)],
    ['BSONObjectTooLarge', false, serverError(10334)],
    ['a TypeError', false, new TypeError('x is undefined')],
  ])('%s: transient %s', (_name, transient, err) => {
    expect(isTransientMongoError(err)).toBe(transient);
  });

  it('looks through a bulk write that failed as a whole to the failure it carries', () => {
    const bulk = (inner: Error) =>
      new MongoBulkWriteError(
        { message: inner.message, code: undefined, writeErrors: [] } as never,
        {} as never,
      );
    const closed = bulk(new MongoNetworkError('connection 14 to 127.0.0.1:27117 closed'));
    // What the driver builds: the command's error as `errorResponse`.
    Object.assign(closed, { errorResponse: new MongoNetworkError('closed') });
    expect(isTransientMongoError(closed)).toBe(true);
    const refused = bulk(serverError(13));
    Object.assign(refused, { errorResponse: serverError(13) });
    expect(isTransientMongoError(refused)).toBe(false);
  });
});
