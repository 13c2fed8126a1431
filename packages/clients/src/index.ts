export { createKafka, type KafkaOptions } from './kafka.js';
export { isTransientKafkaError } from './kafka-log-level.js';
export { kafkaSecurity, type KafkaSecurity, type ReadFile } from './kafka-security.js';
export { dependencyFailure, refusedCredentials } from './auth-refusal.js';
export { createRedis, type RedisClientOptions } from './redis.js';
export { createRegistry, type RegistryOptions } from './registry.js';
export { consumerLag } from './lag.js';
export {
  groupStatus,
  otherGroupsOnTopic,
  type GroupMember,
  type GroupStatus,
  type GroupStatusOptions,
  type PartitionPosition,
} from './group-status.js';
export { recordTimes, type OffsetsAtTime, type RecordTimeOptions } from './record-time.js';
export {
  probeDependencies,
  probePipeline,
  type MongoProbe,
  type PipelineEnv,
  type ProbeTargets,
} from './probe.js';
export { readTopic, type ReadRange, type ReadTopicOptions } from './read-topic.js';
export { NO_PROGRESS, type Progress, type StartProgress } from './progress.js';
export { positionGroup, rewindGroup, RewindError, type GroupStart } from './rewind.js';
export { headerText } from './headers.js';
export { LOG_APPEND_TIME, timestampTypeProblem, topicTimestampType } from './timestamp-type.js';
export { followTopic, type FollowTopicOptions } from './follow-topic.js';
