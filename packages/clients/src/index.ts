export { createKafka, type KafkaOptions } from './kafka.js';
export { kafkaSecurity, type KafkaSecurity, type ReadFile } from './kafka-security.js';
export { dependencyFailure, refusedCredentials } from './auth-refusal.js';
export { createMongoClient, type MongoOptions } from './mongo.js';
export { createRedis, type RedisClientOptions } from './redis.js';
export { createRegistry, type RegistryOptions } from './registry.js';
export { consumerLag } from './lag.js';
export { probeDependencies, type ProbeTargets } from './probe.js';
