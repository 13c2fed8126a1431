import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { BenchEnv } from './env.js';
import {
  clockTicksPerSecond,
  listensOn,
  readMachineTicks,
  readProcStat,
  type MachineTicks,
} from './proc-stat.js';

/** The local stack's parts the benchmark's designs make work: the database, the broker, the registry. */
export const STACK_PARTS = ['mongo', 'kafka', 'registry'] as const;
export type StackPart = (typeof STACK_PARTS)[number];

export const STACK_PART_NAMES: Readonly<Record<StackPart, string>> = {
  mongo: 'database server',
  kafka: 'Kafka',
  registry: 'schema registry',
};

/** One part's CPU over one design's measured run, or why there is no figure. */
export type PartCpu =
  { measured: true; pid: number; cpuSeconds: number } | { measured: false; reason: string };

export type StackCpu = Record<StackPart, PartCpu>;

/** Where the stack's processes were looked for, for the report's notes. */
export interface StackLookup {
  runDir: string;
  clockTicksPerSecond?: number;
  parts: Record<StackPart, { pid: number } | { reason: string }>;
}

/** Called at the start and the end of a design's measured run (synchronously: a few /proc reads). */
export interface RunMeter {
  start(): void;
  stop(): void;
}

type Located = { pid: number; startTicks: number } | { reason: string };
interface Sample {
  parts: Record<StackPart, { pid: number; ticks: number } | { reason: string }>;
  machine?: MachineTicks;
}

/** What one design's run cost the stack, and how busy the whole (shared) machine was. */
export interface RunCpu {
  stackCpu: StackCpu;
  /** Share of all cores busy over the run, anyone's processes (/proc/stat); absent if unread. */
  machineBusy?: number;
}

/** One value per part, in STACK_PARTS order. */
function byPart<T>(value: (part: StackPart) => T): Record<StackPart, T> {
  return Object.fromEntries(STACK_PARTS.map((part) => [part, value(part)])) as Record<StackPart, T>;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

/** host:port of an address, or undefined when it cannot name one (several hosts, SRV). */
function hostPort(text: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(text);
  if (match === null) return undefined;
  return { host: match[1]!, port: match[2] === undefined ? defaultPort : Number(match[2]) };
}

/** Each part's address as the harness uses it (the workers get the same). */
export function stackAddresses(
  env: Pick<BenchEnv, 'MONGODB_URI' | 'KAFKA_BROKERS' | 'SCHEMA_REGISTRY_URL'>,
): Record<StackPart, { host: string; port: number } | undefined> {
  const mongoHosts = /^mongodb:\/\/(?:[^@/]*@)?([^/?]+)/.exec(env.MONGODB_URI)?.[1];
  const registry = new URL(env.SCHEMA_REGISTRY_URL);
  const broker = env.KAFKA_BROKERS[0];
  return {
    mongo:
      mongoHosts === undefined || mongoHosts.includes(',')
        ? undefined
        : hostPort(mongoHosts, 27017),
    kafka: broker === undefined ? undefined : hostPort(broker, 9092),
    registry: {
      host: registry.hostname,
      port: Number(registry.port || (registry.protocol === 'https:' ? 443 : 80)),
    },
  };
}

function locate(
  runDir: string,
  part: StackPart,
  address: { host: string; port: number } | undefined,
): Located {
  if (address === undefined) return { reason: 'its address names no single host' };
  if (!LOCAL_HOSTS.has(address.host)) return { reason: `at ${address.host}, not this machine` };
  const pidFile = join(runDir, `${part}.pid`);
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return { reason: `no pid file ${pidFile} (not the local stack's process)` };
  }
  try {
    if (!listensOn(pid, address.port)) {
      return { reason: `pid ${pid} of ${pidFile} does not listen on port ${address.port}` };
    }
    return { pid, startTicks: readProcStat(pid).startTicks };
  } catch {
    return { reason: `pid ${pid} of ${pidFile} is not running` };
  }
}

/**
 * CPU time of the local stack's processes (infra/local/stack.sh writes their pid files in
 * `$TT_STACK_DIR/run`), read from /proc at the start and the end of each design's run. A part
 * the harness cannot tie to the address it uses — no pid file (a stack from docker-compose), a
 * process that does not listen on that port, another machine — is reported as not measured.
 */
export class StackMeter {
  private constructor(
    private readonly located: Record<StackPart, Located>,
    private readonly hz: number | undefined,
    readonly lookup: StackLookup,
  ) {}

  static locate(env: BenchEnv): StackMeter {
    const runDir = join(env.TT_STACK_DIR, 'run');
    let hz: number | undefined;
    try {
      hz = clockTicksPerSecond();
    } catch {
      hz = undefined;
    }
    const addresses = stackAddresses(env);
    const located = byPart<Located>((part) =>
      hz === undefined
        ? { reason: 'getconf CLK_TCK failed' }
        : locate(runDir, part, addresses[part]),
    );
    const parts = byPart((part) => {
      const where = located[part];
      return 'pid' in where ? { pid: where.pid } : { reason: where.reason };
    });
    return new StackMeter(located, hz, {
      runDir,
      ...(hz === undefined ? {} : { clockTicksPerSecond: hz }),
      parts,
    });
  }

  private sample(): Sample {
    let machine: MachineTicks | undefined;
    try {
      machine = readMachineTicks();
    } catch {
      machine = undefined;
    }
    return { parts: this.sampleParts(), ...(machine === undefined ? {} : { machine }) };
  }

  private sampleParts(): Sample['parts'] {
    return byPart((part) => {
      const where = this.located[part];
      if (!('pid' in where)) return where;
      try {
        const stat = readProcStat(where.pid);
        // The pid now names another process: the part was restarted, its time is not comparable.
        if (stat.startTicks !== where.startTicks) {
          return { reason: `pid ${where.pid} was restarted during the run` };
        }
        return { pid: where.pid, ticks: stat.utimeTicks + stat.stimeTicks };
      } catch {
        return { reason: `pid ${where.pid} exited during the run` };
      }
    });
  }

  /** A meter for one design's run; `result()` after `stop()`. */
  window(): RunMeter & { result(): RunCpu } {
    let first: Sample | undefined;
    let last: Sample | undefined;
    return {
      start: () => {
        first ??= this.sample();
      },
      stop: () => {
        last ??= this.sample();
      },
      result: () => {
        const [hz, start, end] = [this.hz, first, last];
        if (start === undefined || end === undefined || hz === undefined) {
          return {
            stackCpu: byPart<PartCpu>(() => ({ measured: false, reason: 'run not metered' })),
          };
        }
        const stackCpu = byPart<PartCpu>((part) => {
          const from = start.parts[part];
          const to = end.parts[part];
          if (!('ticks' in from)) return { measured: false, reason: from.reason };
          if (!('ticks' in to)) return { measured: false, reason: to.reason };
          return { measured: true, pid: from.pid, cpuSeconds: (to.ticks - from.ticks) / hz };
        });
        const [m0, m1] = [start.machine, end.machine];
        const total = m0 && m1 ? m1.total - m0.total : 0;
        return {
          stackCpu,
          ...(m0 && m1 && total > 0 ? { machineBusy: (m1.busy - m0.busy) / total } : {}),
        };
      },
    };
  }
}
