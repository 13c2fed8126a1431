import type { Level } from '@tickertape/buckets';
import { consumerLag } from '@tickertape/clients';
import { kafkaSecurityVars, registryAuthVars } from '@tickertape/config';
import { TickertapeError } from '@tickertape/errors';
import { serviceEntry, type EntryMode } from '@tickertape/testing';
import type { Admin } from 'kafkajs';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { BenchEnv } from './env.js';

export type WorkerMode = EntryMode;

export interface WorkerSpec {
  level: Level;
  groupId: string;
  database: string;
  topic: string;
  dlqTopic: string;
  /** The workers' PARTITIONS_CONCURRENTLY; their default when absent. */
  partitionsConcurrently?: number;
  /** More environment (FRESHNESS_BUDGET_MS …); the workers' defaults for anything absent. */
  vars?: Readonly<Record<string, string>>;
}

/**
 * What every process the harness starts (workers, the live producer) gets: PATH and HOME, and
 * the stack's addresses with their credentials — nothing else of the harness's environment.
 */
export function childProcessEnv(env: BenchEnv): Record<string, string> {
  return {
    PATH: env.PATH,
    HOME: env.HOME,
    KAFKA_BROKERS: env.KAFKA_BROKERS.join(','),
    ...kafkaSecurityVars(env),
    SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
    ...registryAuthVars(env),
    MONGODB_URI: env.MONGODB_URI,
  };
}

/** Counters of one Prometheus text page, every sample of a name summed (labels aside). */
export function parseMetrics(text: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(line)?.[0];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (name === undefined || !Number.isFinite(value)) continue;
    sums.set(name, (sums.get(name) ?? 0) + value);
  }
  return sums;
}

const LOG_TAIL_LINES = 40;
const START_TIMEOUT_MS = 60_000;

/**
 * One real rollup worker as its own process — `node dist/main.js`, or its source through tsx
 * where nothing is built (tests) — configured only through its environment, as in production.
 * Its JSON log lines say when it joined its group and where its /metrics listen.
 */
export class WorkerProcess {
  /** Epoch ms of the worker's `joined consumer group` line. */
  readonly joined: Promise<number>;
  /** Port of /metrics and /health, from the `rollup worker started` line. */
  readonly port: Promise<number>;
  /** Rejects with the log's tail if the process exits before `stop` is called. */
  readonly died: Promise<never>;
  private readonly tail: string[] = [];
  private stopping = false;
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly spec: WorkerSpec,
    private readonly child: ChildProcess,
  ) {
    let onJoined!: (at: number) => void;
    let onPort!: (port: number) => void;
    let fail!: (err: Error) => void;
    this.died = new Promise<never>((_, reject) => (fail = reject));
    // Nobody may be awaiting yet when the process dies early; the races below report it.
    this.died.catch(() => undefined);
    this.joined = Promise.race([new Promise<number>((resolve) => (onJoined = resolve)), this.died]);
    this.port = Promise.race([new Promise<number>((resolve) => (onPort = resolve)), this.died]);
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    void this.exited.then((code) => {
      if (this.stopping) return;
      fail(
        new TickertapeError(
          'BENCH_WORKER_EXITED',
          `${spec.level} worker exited with ${code}:\n${this.tail.join('\n')}`,
        ),
      );
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      this.remember(line);
      let entry: { msg?: unknown; time?: unknown; port?: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg === 'joined consumer group' && typeof entry.time === 'string') {
        onJoined(Date.parse(entry.time));
      } else if (entry.msg === 'rollup worker started' && typeof entry.port === 'number') {
        onPort(entry.port);
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => this.remember(line));
  }

  static start(
    spec: WorkerSpec,
    env: BenchEnv,
    mode: WorkerMode,
    nodeArgs: readonly string[] = [],
  ): WorkerProcess {
    const entry = serviceEntry('@tickertape/rollup-worker', mode, import.meta.url);
    if (!existsSync(entry.file)) {
      throw new TickertapeError(
        'BENCH_WORKER_NOT_BUILT',
        `${entry.file} is missing: run pnpm exec turbo run build --filter=@tickertape/rollup-worker...`,
      );
    }
    const child = spawn(process.execPath, [...nodeArgs, ...entry.args], {
      cwd: entry.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...childProcessEnv(env),
        MONGODB_DATABASE: spec.database,
        ROLLUP_LEVEL: spec.level,
        GROUP_ID: spec.groupId,
        TOPIC: spec.topic,
        DLQ_TOPIC: spec.dlqTopic,
        ...(spec.partitionsConcurrently === undefined
          ? {}
          : { PARTITIONS_CONCURRENTLY: String(spec.partitionsConcurrently) }),
        // A free port: several workers run side by side. Info level for the two lines above.
        HTTP_PORT: '0',
        LOG_LEVEL: 'info',
        STARTUP_TIMEOUT_MS: String(env.STARTUP_TIMEOUT_MS),
        ...spec.vars,
      },
    });
    return new WorkerProcess(spec, child);
  }

  /** Resolves once joined and listening; fails with the log's tail if the worker dies first. */
  async ready(): Promise<{ joinedAt: number; port: number }> {
    const timeout = new Promise<never>((_, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new TickertapeError(
              'BENCH_WORKER_TIMEOUT',
              `${this.spec.level} worker not ready after ${START_TIMEOUT_MS} ms:\n${this.tail.join('\n')}`,
            ),
          ),
        START_TIMEOUT_MS,
      );
      timer.unref();
    });
    const [joinedAt, port] = await Promise.race([Promise.all([this.joined, this.port]), timeout]);
    return { joinedAt, port };
  }

  async metrics(): Promise<Map<string, number>> {
    const response = await fetch(`http://127.0.0.1:${await this.port}/metrics`);
    return parseMetrics(await response.text());
  }

  /** SIGTERM (the worker leaves its group and closes its clients), SIGKILL if it hangs. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  private remember(line: string): void {
    this.tail.push(line);
    if (this.tail.length > LOG_TAIL_LINES) this.tail.shift();
  }
}

/** Polls until `groupId` has committed the end offset of every partition; returns when (epoch ms). */
export async function waitCommitted(
  admin: Admin,
  groupId: string,
  topic: string,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { total } = await consumerLag(admin, groupId, topic);
    if (total === 0) return Date.now();
    if (Date.now() > deadline) {
      throw new TickertapeError(
        'BENCH_STALLED',
        `group ${groupId} still ${total} records behind on ${topic} after ${timeoutMs} ms`,
      );
    }
    // Polled, not awaited on an event: commits are the workers' own; 50 ms is the resolution.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
