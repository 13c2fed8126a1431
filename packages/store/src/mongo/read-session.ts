import type { ClientSession } from 'mongodb';
import type { ReadSession } from '../port/read-session.js';

/** A causally consistent driver session behind the port's opaque `ReadSession`. */
export class MongoReadSession implements ReadSession {
  constructor(readonly session: ClientSession) {}

  end(): Promise<void> {
    return this.session.endSession();
  }
}

/** The driver session to pass to a read, if the query has one of this store's sessions. */
export function clientSessionOf(session: ReadSession | undefined): ClientSession | undefined {
  return session instanceof MongoReadSession ? session.session : undefined;
}

/** A read's options with the query's session, if it has one of this store's (none otherwise). */
export function sessionOption(session: ReadSession | undefined): { session?: ClientSession } {
  const given = clientSessionOf(session);
  return given === undefined ? {} : { session: given };
}
