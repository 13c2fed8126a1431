export { TestStack, type SaslListener, type TopicSpec } from './test-stack.js';
export { uniqueName } from './unique-name.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { spawnNode, spawnService, waitHealthy, type ServiceProcess } from './spawn-service.js';
export { serviceEntry, type EntryMode, type ServiceEntry } from './service-entry.js';
export { runProcess, type ProcessRun } from './run-process.js';
export { freePort } from './free-port.js';
export { prng } from './prng.js';
export { documentedMetrics, registeredMetrics, type MetricSource } from './documented-metrics.js';
export {
  applyGuarded,
  type ApplyResult,
  type Doc,
  type GuardedOperation,
} from './update-interpreter.js';
