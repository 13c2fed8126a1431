import { LEVELS } from '@tickertape/buckets';
import { kafkaSecurityVars, registryAuthVars } from '@tickertape/config';
import { serviceEntry, spawnNode, type ServiceProcess } from '@tickertape/testing';
import { TIME_WINDOW_DEFAULTS, type Store } from '@tickertape/topology';
import type { FaultsEnv } from './env.js';
import { PROFILES } from './schedule.js';

/** What the suite runs as processes: one kind of worker per store, and the scheduler. */
export type Process = Store | 'scheduler';

/** One run's names: its topic, DLQ and database, fresh each time. */
export interface RunNames {
  topic: string;
  dlqTopic: string;
  database: string;
  /** The profile's lateness bound, for the workers, the scheduler's grace and the checker. */
  maxLatenessMs: number;
}

/** The workers' settings the checker must know (the same values go to both). */
export const WORKER_LIMITS = {
  maxFutureMs: TIME_WINDOW_DEFAULTS.maxFutureMs,
  segmentMaxPoints: 100,
} as const;

export function groupOf(run: RunNames, store: Store): string {
  return `${run.topic}-${store}`;
}

/** The addresses and credentials of Kafka, the registry and MongoDB, as every process gets them. */
function connectionEnv(env: FaultsEnv): Record<string, string> {
  return {
    ...env.inherited,
    ...kafkaSecurityVars(env),
    ...registryAuthVars(env),
    KAFKA_BROKERS: env.KAFKA_BROKERS.join(','),
    SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
    MONGODB_URI: env.MONGODB_URI,
  };
}

/** What the `tickertape` CLI needs to reach the run's stack, as an operator's shell would have it. */
export function cliEnv(env: FaultsEnv): Record<string, string> {
  return { ...connectionEnv(env), REDIS_URL: env.REDIS_URL, LOG_FORMAT: 'json' };
}

/**
 * Where the workers and the scheduler reach the stack: through Toxiproxy when the profile puts
 * faults in the network (the load, the checker and the CLI keep the direct addresses).
 */
function pipelineEnv(env: FaultsEnv): Record<string, string> {
  const direct = { ...connectionEnv(env), REDIS_URL: env.REDIS_URL };
  const { TT_TOXI_KAFKA_BROKERS, TT_TOXI_SCHEMA_REGISTRY_URL, TT_TOXI_MONGODB_URI } = env;
  const { TT_TOXI_REDIS_URL } = env;
  if (
    TT_TOXI_KAFKA_BROKERS === undefined ||
    TT_TOXI_SCHEMA_REGISTRY_URL === undefined ||
    TT_TOXI_MONGODB_URI === undefined ||
    TT_TOXI_REDIS_URL === undefined ||
    PROFILES[env.FAULT_PROFILE].stack !== 'cluster'
  )
    return direct;
  return {
    ...direct,
    KAFKA_BROKERS: TT_TOXI_KAFKA_BROKERS.join(','),
    SCHEMA_REGISTRY_URL: TT_TOXI_SCHEMA_REGISTRY_URL,
    MONGODB_URI: TT_TOXI_MONGODB_URI,
    REDIS_URL: TT_TOXI_REDIS_URL,
  };
}

/** A service from source through its package's exports map, as the suite runs everything. */
function spawnEntry(service: string, env: Record<string, string>): ServiceProcess {
  const entry = serviceEntry(service, 'source', import.meta.url);
  return spawnNode(entry.dir, entry.args, env);
}

function workerEnv(env: FaultsEnv, run: RunNames, store: Store): Record<string, string> {
  const { REDIS_URL: _scheduler, ...reach } = pipelineEnv(env);
  return {
    ...reach,
    MONGODB_DATABASE: run.database,
    ROLLUP_LEVEL: store,
    TOPIC: run.topic,
    DLQ_TOPIC: run.dlqTopic,
    GROUP_ID: groupOf(run, store),
    HTTP_PORT: '0',
    FLUSH_MAX_WAIT_MS: '200',
    FLUSH_MAX_TICKS: '1000',
    // Budgets on, every level alike: records held across ten fetches, so kills, restarts and
    // rebalances land on held and uncommitted records too (the defaults' 60 s would only make the
    // run wait for its tail).
    FRESHNESS_BUDGET_MS: '2000',
    // A SIGKILLed member's partitions move on after this; the broker's minimum.
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    MAX_LATENESS_MS: String(run.maxLatenessMs),
    MAX_FUTURE_MS: String(WORKER_LIMITS.maxFutureMs),
    SEGMENT_MAX_POINTS: String(WORKER_LIMITS.segmentMaxPoints),
    // Each flush's offsets and each group join land in the run's logs: enough to trace a
    // difference the checker finds back to the flush that caused it.
    LOG_LEVEL: 'debug',
  };
}

function schedulerEnv(env: FaultsEnv, run: RunNames): Record<string, string> {
  return {
    ...pipelineEnv(env),
    TOPIC: run.topic,
    FINALITY_GROUPS: LEVELS.map((level) => `${level}=${groupOf(run, level)}`).join(','),
    MONGODB_DATABASE: run.database,
    SCHEDULER_QUEUE: `${run.topic}-scheduler`,
    SHELL_LEVELS: LEVELS.join(','),
    MAX_LATENESS_MS: String(run.maxLatenessMs),
    FINALITY_GRACE_MS: String(run.maxLatenessMs),
    SHELLS_EVERY_MS: '5000',
    FINALIZE_EVERY_MS: '5000',
    HTTP_PORT: '0',
    LOG_LEVEL: 'warn',
  };
}

/**
 * Starts one process of `name` from source, with exactly the settings above plus `extra` (a
 * fake clock's variables).
 */
export function spawnProcess(
  env: FaultsEnv,
  run: RunNames,
  name: Process,
  extra: Record<string, string> = {},
): ServiceProcess {
  return name === 'scheduler'
    ? spawnEntry('@tickertape/scheduler', { ...schedulerEnv(env, run), ...extra })
    : spawnEntry('@tickertape/rollup-worker', { ...workerEnv(env, run, name), ...extra });
}
