import type { Db, Document } from 'mongodb';
import type { StoreCapabilities } from '../port/capabilities.js';

/** The server behind `buildInfo`, in the words of `StoreCapabilities.server`. */
function serverOf(info: Document): string {
  // FerretDB 1.x names its own version beside the MongoDB version it emulates; 2.x nests it.
  const ferret: unknown = info.ferretdbVersion ?? (info.ferretdb as Document | undefined)?.version;
  if (typeof ferret === 'string') return `ferretdb ${ferret.replace(/^v/, '')}`;
  // mongo-java-server (the local stand-in) is the one that reports no gitVersion; the version it
  // does report is the MongoDB it answers as (the benchmark's machine line names it).
  if (info.gitVersion === undefined)
    return `mongo-java-server, reporting MongoDB ${String(info.version)}`;
  return `mongodb ${String(info.version)}`;
}

/** Replica sets and sharded clusters keep cluster time, which causal sessions need. */
async function keepsClusterTime(admin: Db): Promise<boolean> {
  // `hello` from MongoDB 4.4.2 on; the stand-in knows only `isMaster`.
  const hello = await admin.command({ hello: 1 }).catch(() => admin.command({ isMaster: 1 }));
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

/**
 * What the server can do, asked once when the store opens. Renaming: the stand-in renames a
 * collection's data but not its indexes, and a restart brings the pre-rename contents back
 * (testing's compat/mongo-rename.test.ts), so it gets the swap bucket by bucket. Causal reads:
 * only when reads may go to a member other than the primary and the server keeps cluster time —
 * on a standalone every read sees every acknowledged write already.
 */
export async function probeCapabilities(
  admin: Db,
  readsAwayFromPrimary: boolean,
): Promise<StoreCapabilities> {
  const info = await admin.command({ buildInfo: 1 });
  const server = serverOf(info);
  const ferret = dialectOf(server) === 'ferretdb';
  return {
    server,
    // FerretDB reports a gitVersion but cannot rename with dropTarget.
    renamesSafely: info.gitVersion !== undefined && !ferret,
    causalReads: readsAwayFromPrimary && (await keepsClusterTime(admin)),
    // FerretDB refuses to store ±Infinity, which a shell's min/max hold.
    shells: !ferret,
  };
}

/**
 * Which commands the Mongo store sends for what the port's capabilities do not name, read off
 * the probed server once: `mongodb` for MongoDB and the stand-in (their commands, unchanged);
 * `ferretdb` where FerretDB 1.x lacks `$map`/`$objectToArray`, answers a `$group` of several
 * accumulators with zeros past the first, and reports a drop of a missing collection as done.
 */
export type Dialect = 'mongodb' | 'ferretdb';

export const dialectOf = (server: string): Dialect =>
  server.startsWith('ferretdb') ? 'ferretdb' : 'mongodb';
