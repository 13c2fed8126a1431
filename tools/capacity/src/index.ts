export {
  capacityDocument,
  capacityMarkdown,
  type CapacityOptions,
  type DocumentOptions,
} from './document.js';
export { parseBenchJson, type BenchJson, type BenchJsonDesign } from './input.js';
export {
  isModelLevel,
  MODEL_LEVELS,
  type BucketPoint,
  type Inputs,
  type ModelLevel,
} from './input-types.js';
export { modelInputs } from './inputs.js';
export { liveCheckSection } from './live-check.js';
export {
  ASSUMPTIONS,
  bucketsPerFlush,
  bytesPerBucket,
  dayChartDocuments,
  documentsPerDay,
  flushSpanSeconds,
  nearestPoint,
  operationsPerSecond,
  partitionsFor,
  planScenario,
  scenarios,
  workersFor,
  type LevelPlan,
  type ScenarioPlan,
} from './model.js';
export { bytesShown } from './render.js';
export { fmt } from './figures-format.js';
export { SEED_READERS, parseReadsJson, readSideSection, type ReadsJson } from './read-side.js';
