// Test support (`@tickertape/store/testing`), not product code: integration tests get a database
// of their own and look at what the stores wrote with the driver itself. It lives here because
// this folder is the only code that speaks the driver's language.
import { MongoClient, type Db } from 'mongodb';

/** What a test's stack (`TestStack` of `@tickertape/testing`) lends a database of its own. */
export interface DatabaseHost {
  readonly label: string;
  readonly env: { readonly MONGODB_URI: string };
  /** A name unique to the run, e.g. `<label>-db-…`. */
  name(kind: string): string;
  /** Runs `cleanup` when the stack closes. */
  onClose(cleanup: () => Promise<void>): void;
}

interface HostDatabases {
  client: MongoClient;
  names: string[];
}

const byHost = new WeakMap<DatabaseHost, HostDatabases>();

function databasesOf(host: DatabaseHost): HostDatabases {
  let held = byHost.get(host);
  if (held === undefined) {
    const client = new MongoClient(host.env.MONGODB_URI, {
      appName: `test-${host.label}`,
      serverSelectionTimeoutMS: 10_000,
    });
    const state: HostDatabases = { client, names: [] };
    held = state;
    byHost.set(host, state);
    host.onClose(async () => {
      for (const name of state.names) await client.db(name).dropDatabase();
      await client.close();
    });
  }
  return held;
}

/** The stack's one client (connected on its first command; closed with the stack). */
export function testClient(host: DatabaseHost): MongoClient {
  return databasesOf(host).client;
}

/** A database unique to the test, dropped when the stack closes. */
export function testDatabase(host: DatabaseHost): Db {
  const held = databasesOf(host);
  const name = host.name('db');
  held.names.push(name);
  return held.client.db(name);
}
