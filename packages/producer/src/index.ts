export {
  DEFAULT_LINGER_MS,
  DEFAULT_MAX_BATCH_TICKS,
  TickProducer,
  type TickProducerOptions,
  type TickProducerStats,
  type TickSink,
} from './tick-producer.js';
export { Batcher, type BatcherOptions } from './batcher.js';
export { InFlight } from './in-flight.js';
export {
  ensureTopics,
  topicPartitions,
  type EnsureTopicsResult,
  type TopicLayout,
  type TopicState,
} from './topics.js';
export { ProducerErrorCode } from './codes.js';
export {
  ProduceFailedError,
  ProducerClosedError,
  RedriveFailedError,
  TopicLayoutError,
  TopicMissingError,
} from './errors.js';
export {
  PROFILE_NAMES,
  type LoadProfile,
  type ProfileName,
  type ProfileOptions,
} from './profiles/profile.js';
export { createProfile, DEFAULT_SERIES } from './profiles/catalog.js';
export { SeededRandom } from './profiles/random.js';
export { STOCK_METRIC, stockSymbol, stocksProfile } from './profiles/stocks.js';
export { CONDITIONS, TRAFFIC_METRIC, trafficProfile, type Condition } from './profiles/traffic.js';
export { achievedRate, msUntilDue, ticksDue, totalTicks } from './load/pacing.js';
export {
  DEFAULT_MAX_PENDING,
  runLoad,
  type LoadProgress,
  type LoadSummary,
  type RunLoadOptions,
} from './load/run-load.js';
export {
  DLQ_HEADERS,
  headerText,
  KNOWN_DLQ_REASONS,
  originalHeaders,
  REDRIVEN_FROM_HEADER,
} from './redrive/dlq-headers.js';
export {
  NO_REASON,
  RedrivePlan,
  SKIP_CAUSES,
  type DeadLetterRecord,
  type ReasonTally,
  type RedriveDecision,
  type RedrivePolicy,
  type RedriveTally,
  type SkipCause,
} from './redrive/redrive-plan.js';
export {
  DEFAULT_REDRIVE_TIMEOUT_MS,
  redrive,
  type RedriveOptions,
  type RedriveReport,
} from './redrive/redrive.js';
export { BAD_INPUT_KINDS, badInputs, type BadInput, type BadInputKind } from './bad-inputs.js';
