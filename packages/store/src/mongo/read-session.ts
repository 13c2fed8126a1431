import type { ClientSession, MongoClient, Timestamp } from 'mongodb';
import type { ReadSession } from '../port/read-session.js';

/**
 * A query's causally consistent session (the port's opaque ReadSession). It keeps the operation
 * time its reads reached after it ends, so the session a reader read the watermarks in can
 * anchor the sessions of the queries that judge finality by them (`begin(client, after)`).
 */
export class MongoReadSession implements ReadSession {
  private constructor(readonly session: ClientSession) {}

  /** A new session, causally after everything `after`'s reads saw (the watermarks' read). */
  static begin(client: MongoClient, after?: ReadSession): MongoReadSession {
    const session = client.startSession({ causalConsistency: true });
    const anchor = after instanceof MongoReadSession ? after.operationTime : undefined;
    if (anchor !== undefined) session.advanceOperationTime(anchor);
    return new MongoReadSession(session);
  }

  get operationTime(): Timestamp | undefined {
    return this.session.operationTime;
  }

  end(): Promise<void> {
    return this.session.endSession();
  }
}

/** The driver's session behind a ReadSession of this store (none for `undefined`). */
export function clientSessionOf(session: ReadSession | undefined): { session?: ClientSession } {
  return session instanceof MongoReadSession ? { session: session.session } : {};
}
