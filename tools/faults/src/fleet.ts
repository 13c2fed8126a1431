import type { Logger } from '@tickertape/logger';
import type { ServiceProcess } from '@tickertape/testing';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

interface Replica {
  process: ServiceProcess;
  /** Set when the suite stops or kills it: its exit is not a failure. */
  expected: boolean;
}

export interface FleetCounters {
  started: number;
  killed: number;
  /** Processes that exited without being told to (restarted, like an orchestrator would). */
  unexpectedExits: number;
}

const STOP_TIMEOUT_MS = 30_000;
const RESTART_DELAY_MS = 1000;

/**
 * The suite's worker processes, per group (a level, the segment store, the scheduler), run the
 * way an orchestrator runs them: a process that dies on its own is restarted after a second and
 * counted. Operations on one group run one after another, so a kill never races a replay.
 */
export class Fleet<Name extends string> {
  private readonly replicas = new Map<Name, Replica[]>();
  private readonly queues = new Map<Name, Promise<unknown>>();
  private closing = false;
  readonly counters: FleetCounters = { started: 0, killed: 0, unexpectedExits: 0 };

  constructor(
    private readonly spawn: (name: Name) => ServiceProcess,
    private readonly logger: Logger,
    private readonly pick: (below: number) => number,
    /** Each process's output is appended to `<logDir>/<name>.log` when it exits. */
    private readonly logDir: string,
  ) {
    mkdirSync(logDir, { recursive: true });
  }

  /** Runs `work` after every earlier operation on `name` has finished. */
  private serial<T>(name: Name, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.queues.set(
      name,
      next.catch(() => undefined),
    );
    return next;
  }

  private list(name: Name): Replica[] {
    let replicas = this.replicas.get(name);
    if (!replicas) this.replicas.set(name, (replicas = []));
    return replicas;
  }

  private launch(name: Name): void {
    const replica: Replica = { process: this.spawn(name), expected: false };
    this.counters.started += 1;
    this.list(name).push(replica);
    const number = this.counters.started;
    void replica.process.exited.then(({ code, signal }) => {
      appendFileSync(
        join(this.logDir, `${name}.log`),
        `--- process ${number} (${name}) exited: code ${code}, signal ${signal}\n${replica.process.output()}`,
      );
      const replicas = this.list(name);
      const at = replicas.indexOf(replica);
      if (at >= 0) replicas.splice(at, 1);
      if (replica.expected || this.closing) return;
      this.counters.unexpectedExits += 1;
      this.logger.warn(
        { process: name, code, signal, output: replica.process.output().slice(-2000) },
        'worker exited on its own; restarting it',
      );
      setTimeout(() => {
        if (!this.closing) void this.serial(name, () => Promise.resolve(this.launch(name)));
      }, RESTART_DELAY_MS);
    });
  }

  private async stop(replica: Replica, signal: NodeJS.Signals): Promise<void> {
    replica.expected = true;
    replica.process.child.kill(signal);
    const timer = setTimeout(() => replica.process.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await replica.process.exited;
    clearTimeout(timer);
  }

  /** Runs exactly `replicas` processes of `name` (starts or gracefully stops the difference). */
  scale(name: Name, replicas: number): Promise<void> {
    return this.serial(name, async () => {
      while (this.list(name).length < replicas) this.launch(name);
      const extra = this.list(name).slice(replicas);
      await Promise.all(extra.map((replica) => this.stop(replica, 'SIGTERM')));
    });
  }

  /** SIGKILL of one random process of `name` (no goodbye to the group), then a new one. */
  kill(name: Name): Promise<void> {
    return this.serial(name, async () => {
      const replicas = this.list(name);
      if (replicas.length === 0) return;
      const victim = replicas[this.pick(replicas.length)]!;
      await this.stop(victim, 'SIGKILL');
      this.counters.killed += 1;
      this.launch(name);
    });
  }

  /** Stops every process of `name`, runs `between` (e.g. an offset reset), starts as many again. */
  restartAll(name: Name, between: () => Promise<void>): Promise<void> {
    return this.serial(name, async () => {
      const replicas = [...this.list(name)];
      await Promise.all(replicas.map((replica) => this.stop(replica, 'SIGTERM')));
      await between();
      for (let i = 0; i < Math.max(1, replicas.length); i++) this.launch(name);
    });
  }

  /** Waits until every queued operation (kills, scales, replays) has finished. */
  async settle(): Promise<void> {
    let pending: Promise<unknown>[];
    do {
      pending = [...this.queues.values()];
      await Promise.all(pending);
    } while ([...this.queues.values()].some((queued, i) => queued !== pending[i]));
  }

  /** Waits for every queued operation, then stops everything gracefully. */
  async close(): Promise<void> {
    await this.settle();
    this.closing = true;
    await Promise.all(
      [...this.replicas.values()].flat().map((replica) => this.stop(replica, 'SIGTERM')),
    );
  }
}
