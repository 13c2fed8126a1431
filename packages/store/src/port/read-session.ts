/**
 * A query's reads, kept causally after the watermarks they judge finality by (a replica set read
 * away from the primary). Opaque to callers: they get one from `RollupStore.beginReads`, pass it
 * to each read of the query and end it. Stores without lagging members hand out `undefined`.
 */
export interface ReadSession {
  end(): Promise<void>;
}
