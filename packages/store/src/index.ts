export type * from './port/index.js';
export {
  openMongoStores,
  type CommandEvent,
  type MongoStoreOptions,
  type MongoStores,
  type ReadPreferenceMode,
} from './mongo/open-stores.js';
export { probeMongo } from './mongo/probe.js';
export { storesOf } from './mongo/stores-of.js';
export { LevelPolicySource } from './level-policy-source.js';
export {
  ReadAbortedError,
  ReadTimeoutError,
  StoreErrorCode,
  StoreUnsupportedError,
  StoreWriteError,
  abortReasonOf,
  isReadAborted,
  isReadTimeout,
} from './store-error.js';
export { ShadowError, ShadowErrorCode } from './shadow-error.js';
export { replacedCollectionOf, shadowPlan } from './layout/shadow-plan.js';
export {
  isRunId,
  newRunId,
  parseShadowName,
  shadowCollectionName,
  type ShadowKind,
} from './layout/shadow-names.js';
// The bucket document's layout, pure: what property tests apply with the test interpreter, and
// what the checker strips before it compares.
export {
  appliedPath,
  guardedUpdate,
  type GuardedUpdate,
  type UpdateDocument,
} from './layout/update.js';
export {
  EMPTY_FIRST,
  EMPTY_LAST,
  shellDocument,
  withoutShellPadding,
  type ShellDocument,
} from './layout/shells.js';
// The one decoder's pure part: a window's aggregates of a decoded bucket part.
export { aggregatesOf } from './layout/aggregates.js';
export { mongoSegmentStore } from './mongo/segments/index.js';
export { createMemoryStore } from './memory/memory-store.js';
