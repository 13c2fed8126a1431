export type * from './port/index.js';
export {
  openMongoStores,
  type CommandEvent,
  type MongoStoreOptions,
  type MongoStores,
  type ReadPreferenceMode,
} from './mongo/open-stores.js';
export { probeMongo } from './mongo/probe.js';
export { LevelPolicySource } from './level-policy-source.js';
export { StoreErrorCode, StoreWriteError } from './store-error.js';
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
export {
  isObservedAggregate,
  isObservedMark,
  summaryProjection,
  type StoredBucket,
  type StoredField,
} from './stored.js';
export { aggregatesOf, projectionOf, wholeFieldProjection } from './slot-reads.js';
export { metricDensities } from './metric-densities.js';
export { mongoSegmentStore } from './mongo/segments/index.js';
