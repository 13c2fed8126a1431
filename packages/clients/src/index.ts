export { createKafka, type KafkaOptions } from './kafka.js';
export { createMongoClient, type MongoOptions } from './mongo.js';
export { createRedis, type RedisClientOptions } from './redis.js';
export { createRegistry, type RegistryOptions } from './registry.js';
export { consumerLag } from './lag.js';
export { probeDependencies, type ProbeTargets } from './probe.js';
export { readTopic, type ReadTopicOptions } from './read-topic.js';
export { rewindGroup, RewindError } from './rewind.js';
