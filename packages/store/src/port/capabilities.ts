/**
 * What the server behind a store can do, probed once when the store opens (never per call, and
 * never by callers: they ask the store). The local stand-in, FerretDB and MongoDB differ here.
 */
export interface StoreCapabilities {
  /** Which implementation answers: `mongodb <version>`, `mongo-java-server, reporting MongoDB
   * <version>`, `ferretdb <version>`, `memory`. */
  readonly server: string;
  /**
   * A shadow can become its partition by `renameCollection` (indexes kept, one step); otherwise
   * the swap copies bucket by bucket (docs/history.md).
   */
  readonly renamesSafely: boolean;
  /**
   * Reads may be served by a member that lags the one that served the watermarks: queries then
   * read in a causally consistent session (see `ReadSession`).
   */
  readonly causalReads: boolean;
  /**
   * Shells can be stored: a shell holds ±Infinity as the neutral min/max (docs/data-layout.md).
   * Without it `insertShells` refuses (StoreError STORE_UNSUPPORTED) and the first tick of a
   * slot creates its bucket.
   */
  readonly shells: boolean;
}
