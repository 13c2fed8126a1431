export {
  LEGACY_SECOND_MARKS,
  LEVELS,
  LEVEL_SPECS,
  NATIVE_WIDTHS,
  MINUTE_SUMS,
  SECOND_COUNTS,
  SECOND_SUMS,
  isLevel,
  type Level,
  type LevelSpec,
  type WidthSource,
  type PartitionSpan,
  type SubKey,
} from './levels.js';
export {
  fieldSetKey,
  fieldSetKeyOf,
  fieldSetNames,
  secondCountsOf,
  type SecondCounts,
} from './field-sets.js';
export { bucketId, ceilTo, floorTo, slotEnd, slotStart, stamp, subSlot } from './slots.js';
export {
  nextPartition,
  parsePartitionName,
  partitionOf,
  type PartitionRange,
} from './partitions.js';
export { earlier, isBefore, later, type Mark } from './marks.js';
export { Ends, sqCoversAll, Totals, type Aggregate } from './aggregate.js';
export {
  SKETCH_ALPHA,
  MAX_SKETCH_ALPHA,
  MIN_SKETCH_ALPHA,
  binAlpha,
  checkSketchAlpha,
  sketchAlphaOf,
  SKETCH_MAX_BINS_PER_SIGN,
  SKETCH_MAX_MAGNITUDE,
  SKETCH_MIN_MAGNITUDE,
  ZERO_BIN,
  addExactValue,
  addToBins,
  binValue,
  exactValueKey,
  binsCount,
  mergeBins,
  quantileOfBins,
  quantilesOfBins,
  sketchKey,
  BinList,
  forEachBin,
  toBins,
  type Sketch,
  type SketchBins,
} from './sketch.js';
export {
  deltaKey,
  foldBatch,
  foldInputOf,
  sketchPlace,
  type BucketDelta,
  type FieldDelta,
  type FoldPolicy,
  type SketchPlace,
  type FoldInput,
  type TickFields,
} from './fold.js';
export {
  consumedWatermark,
  finalityWatermark,
  isSlotFinal,
  levelAbove,
  partitionsAhead,
  retentionPlan,
  retentionVerdict,
  type RetentionPolicy,
  type RetentionVerdict,
} from './schedule.js';
export { timeVerdict, type TimeBounds, type Timeliness } from './time-verdict.js';
export { rollUp, type CoarseLevel, type FinerBucket } from './roll-up.js';
export {
  AUTO_SKIP_LEVEL,
  COMPACT_LEVELS,
  KEEP_EVERYTHING,
  LevelPolicy,
  LevelPolicyError,
  suggestedModes,
  type AutoSkipChange,
  type AutoSkipSpec,
  type LevelMode,
  type LevelPolicySpec,
  type MetricPolicyChange,
  type PinChange,
  type SketchAlphaSpec,
  type WeightSpec,
} from './level-policy.js';
export {
  AUTO_KEEP_ABOVE_PER_MINUTE,
  AUTO_SKIP_AT_PER_MINUTE,
  POLICY_REFRESH_MS,
  autoSkipBoundary,
  autoSkipDecision,
  type AutoSkipDecision,
} from './auto-skip.js';
