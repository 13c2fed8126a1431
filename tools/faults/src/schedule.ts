import type { Level } from '@tickertape/buckets';
import { STORES, type Store } from '@tickertape/topology';

/** Parts of the local stack the suite restarts (the registry is read once per worker start). */
export const STACK_PARTS = ['kafka', 'mongo', 'redis'] as const;
export type StackPart = (typeof STACK_PARTS)[number];

/** Which broker of a cluster a fault hits, found when it is carried out. */
export type BrokerTarget = 'leader' | 'controller';
/** What Toxiproxy does between the pipeline's processes and a part (network-faults.ts). */
export const NETWORK_TOXICS = ['latency', 'bandwidth', 'reset', 'half-open', 'cut'] as const;
export type NetworkToxic = (typeof NETWORK_TOXICS)[number];
export const NETWORK_TARGETS = ['kafka', 'mongo', 'redis', 'registry'] as const;
export type NetworkTarget = (typeof NETWORK_TARGETS)[number];

export type FaultEvent =
  | { atMs: number; kind: 'kill-worker'; store: Store }
  | { atMs: number; kind: 'restart'; part: StackPart }
  | { atMs: number; kind: 'replay'; store: Store }
  | { atMs: number; kind: 'scale'; store: Store; replicas: number }
  | { atMs: number; kind: 'bad-input' }
  /** `tickertape rebuild` of a level over everything final so far, under the load. */
  | {
      atMs: number;
      kind: 'rebuild';
      level: Level;
      source: 'topic' | 'minute' | 'hour';
    }
  /**
   * A cluster's broker stopped (SIGKILL, or SIGTERM as a deploy does) and started again, `times`
   * in a row, each time the broker that is the target then; the next waits for full replicas.
   */
  | {
      atMs: number;
      kind: 'broker';
      action: 'kill' | 'restart';
      target: BrokerTarget;
      times: number;
    }
  /** Every broker restarted in turn, each once the partitions are fully replicated again. */
  | { atMs: number; kind: 'rolling-restart' }
  /** A broker frozen (SIGSTOP) past the sessions' timeouts, then let go (SIGCONT). */
  | { atMs: number; kind: 'pause-broker'; target: BrokerTarget; pauseMs: number }
  /** A toxic on every connection from the workers and the scheduler to a part, for a while. */
  | { atMs: number; kind: 'network'; target: NetworkTarget; toxic: NetworkToxic; forMs: number }
  /** The wall clock of a store's workers stepped by `stepMs` (libfaketime), left so. */
  | { atMs: number; kind: 'clock-step'; store: Store; stepMs: number };

export type FaultKind = FaultEvent['kind'];

export const PROFILE_NAMES = ['short', 'long', 'cluster', 'cluster-short'] as const;

export interface FaultProfile {
  name: (typeof PROFILE_NAMES)[number];
  /**
   * What the stack must be: `single` (any local stack) or `cluster` (three brokers and Toxiproxy
   * in front of every part: scripts/faults.sh starts one of its own).
   */
  stack: 'single' | 'cluster';
  /** How long the load generator publishes. */
  loadMs: number;
  /** Ticks per second, split between the stock and the traffic profile. */
  stocksPerSec: number;
  trafficPerSec: number;
  /**
   * The workers' MAX_LATENESS_MS and the scheduler's FINALITY_GRACE_MS: short enough in the long
   * profile that slots become final during the run, so a rebuild has something to rebuild.
   */
  maxLatenessMs: number;
  /** A SIGKILL of a random worker this often, from `killEveryMs` on. */
  killEveryMs: number;
  /** Everything else, at fixed times into the load. */
  events: readonly FaultEvent[];
}

const S = 1000;

export const PROFILES: Readonly<Record<FaultProfile['name'], FaultProfile>> = {
  // About two minutes in all: what CI runs.
  short: {
    name: 'short',
    stack: 'single',
    loadMs: 75 * S,
    stocksPerSec: 60,
    trafficPerSec: 40,
    maxLatenessMs: 6 * 3600 * S,
    killEveryMs: 7 * S,
    events: [
      { atMs: 8 * S, kind: 'bad-input' },
      { atMs: 15 * S, kind: 'restart', part: 'kafka' },
      { atMs: 22 * S, kind: 'scale', store: 'hour', replicas: 3 },
      { atMs: 30 * S, kind: 'replay', store: 'minute' },
      { atMs: 38 * S, kind: 'restart', part: 'mongo' },
      { atMs: 46 * S, kind: 'scale', store: 'hour', replicas: 1 },
      { atMs: 52 * S, kind: 'restart', part: 'redis' },
      { atMs: 60 * S, kind: 'bad-input' },
    ],
  },
  // Ten minutes at twice the rate, every fault more than once: run on demand, recorded in
  // docs/reliability.md.
  long: {
    name: 'long',
    stack: 'single',
    loadMs: 600 * S,
    stocksPerSec: 120,
    trafficPerSec: 80,
    maxLatenessMs: 3 * 60 * S,
    killEveryMs: 5 * S,
    events: [
      ...[30, 150, 270, 390, 510].map((at) => ({ atMs: at * S, kind: 'bad-input' as const })),
      { atMs: 60 * S, kind: 'restart', part: 'kafka' },
      { atMs: 100 * S, kind: 'scale', store: 'hour', replicas: 3 },
      { atMs: 140 * S, kind: 'replay', store: 'minute' },
      { atMs: 180 * S, kind: 'restart', part: 'mongo' },
      { atMs: 220 * S, kind: 'scale', store: 'hour', replicas: 1 },
      { atMs: 240 * S, kind: 'scale', store: 'segments', replicas: 3 },
      { atMs: 300 * S, kind: 'restart', part: 'redis' },
      { atMs: 330 * S, kind: 'replay', store: 'segments' },
      { atMs: 360 * S, kind: 'scale', store: 'segments', replicas: 1 },
      { atMs: 400 * S, kind: 'restart', part: 'kafka' },
      { atMs: 420 * S, kind: 'rebuild', level: 'minute', source: 'topic' },
      { atMs: 430 * S, kind: 'scale', store: 'day', replicas: 3 },
      { atMs: 460 * S, kind: 'replay', store: 'hour' },
      { atMs: 480 * S, kind: 'restart', part: 'mongo' },
      { atMs: 520 * S, kind: 'scale', store: 'day', replicas: 1 },
      { atMs: 550 * S, kind: 'replay', store: 'day' },
      { atMs: 570 * S, kind: 'rebuild', level: 'minute', source: 'topic' },
    ],
  },
  // Seven minutes on a three-broker cluster: the brokers' faults one after another (two brokers
  // down at once would stop every acks=all write, which is Kafka keeping its promise, not a
  // test of ours), network faults of every kind against every part between them, a worker's
  // clock stepped forward and back. Run on demand, recorded in docs/reliability.md.
  cluster: {
    name: 'cluster',
    stack: 'cluster',
    loadMs: 420 * S,
    stocksPerSec: 60,
    trafficPerSec: 40,
    maxLatenessMs: 6 * 3600 * S,
    killEveryMs: 20 * S,
    events: [
      { atMs: 5 * S, kind: 'bad-input' },
      { atMs: 15 * S, kind: 'broker', action: 'kill', target: 'leader', times: 5 },
      { atMs: 20 * S, kind: 'network', target: 'mongo', toxic: 'latency', forMs: 20 * S },
      { atMs: 50 * S, kind: 'network', target: 'redis', toxic: 'reset', forMs: 10 * S },
      { atMs: 70 * S, kind: 'clock-step', store: 'minute', stepMs: 120 * S },
      { atMs: 80 * S, kind: 'network', target: 'registry', toxic: 'half-open', forMs: 20 * S },
      { atMs: 130 * S, kind: 'broker', action: 'restart', target: 'leader', times: 5 },
      { atMs: 140 * S, kind: 'network', target: 'mongo', toxic: 'reset', forMs: 10 * S },
      { atMs: 170 * S, kind: 'network', target: 'redis', toxic: 'cut', forMs: 15 * S },
      { atMs: 200 * S, kind: 'bad-input' },
      { atMs: 230 * S, kind: 'broker', action: 'kill', target: 'controller', times: 1 },
      { atMs: 240 * S, kind: 'network', target: 'mongo', toxic: 'half-open', forMs: 15 * S },
      { atMs: 255 * S, kind: 'broker', action: 'restart', target: 'controller', times: 1 },
      { atMs: 275 * S, kind: 'rolling-restart' },
      { atMs: 290 * S, kind: 'clock-step', store: 'minute', stepMs: -120 * S },
      { atMs: 335 * S, kind: 'pause-broker', target: 'leader', pauseMs: 20 * S },
      { atMs: 345 * S, kind: 'network', target: 'mongo', toxic: 'bandwidth', forMs: 15 * S },
      // Kafka's, one after another (the suite runs one fault at a time per part).
      { atMs: 362 * S, kind: 'network', target: 'kafka', toxic: 'latency', forMs: 10 * S },
      { atMs: 374 * S, kind: 'network', target: 'kafka', toxic: 'bandwidth', forMs: 8 * S },
      { atMs: 384 * S, kind: 'network', target: 'kafka', toxic: 'reset', forMs: 5 * S },
      { atMs: 391 * S, kind: 'network', target: 'kafka', toxic: 'half-open', forMs: 8 * S },
      { atMs: 401 * S, kind: 'network', target: 'kafka', toxic: 'cut', forMs: 12 * S },
      { atMs: 410 * S, kind: 'bad-input' },
    ],
  },
  // The cluster profile's kinds once each, in about two and a half minutes: what CI runs.
  'cluster-short': {
    name: 'cluster-short',
    stack: 'cluster',
    loadMs: 110 * S,
    stocksPerSec: 60,
    trafficPerSec: 40,
    maxLatenessMs: 6 * 3600 * S,
    killEveryMs: 25 * S,
    events: [
      { atMs: 5 * S, kind: 'bad-input' },
      { atMs: 10 * S, kind: 'broker', action: 'kill', target: 'leader', times: 1 },
      { atMs: 12 * S, kind: 'network', target: 'mongo', toxic: 'latency', forMs: 8 * S },
      { atMs: 22 * S, kind: 'network', target: 'redis', toxic: 'cut', forMs: 10 * S },
      { atMs: 25 * S, kind: 'clock-step', store: 'minute', stepMs: 90 * S },
      { atMs: 35 * S, kind: 'broker', action: 'restart', target: 'controller', times: 1 },
      { atMs: 40 * S, kind: 'network', target: 'registry', toxic: 'half-open', forMs: 8 * S },
      { atMs: 52 * S, kind: 'network', target: 'mongo', toxic: 'reset', forMs: 5 * S },
      { atMs: 60 * S, kind: 'pause-broker', target: 'leader', pauseMs: 12 * S },
      { atMs: 65 * S, kind: 'network', target: 'mongo', toxic: 'bandwidth', forMs: 6 * S },
      { atMs: 80 * S, kind: 'network', target: 'kafka', toxic: 'half-open', forMs: 8 * S },
      { atMs: 92 * S, kind: 'network', target: 'kafka', toxic: 'cut', forMs: 9 * S },
      { atMs: 100 * S, kind: 'bad-input' },
    ],
  },
};

/**
 * Every fault of a run in time order: the profile's fixed events plus a kill every
 * `killEveryMs`, each of a worker of a store `pick` chooses (seeded by the caller, so a run
 * repeats). No event falls after the load ends: the last word is the workers' catching up.
 */
export function faultSchedule(
  profile: FaultProfile,
  pick: (below: number) => number,
): FaultEvent[] {
  const kills: FaultEvent[] = [];
  for (let at = profile.killEveryMs; at < profile.loadMs; at += profile.killEveryMs) {
    kills.push({ atMs: at, kind: 'kill-worker', store: STORES[pick(STORES.length)]! });
  }
  return [...profile.events.filter((event) => event.atMs < profile.loadMs), ...kills].sort(
    (a, b) => a.atMs - b.atMs,
  );
}

/** How many of each kind a schedule holds, every kind listed. */
export function countByKind(events: readonly FaultEvent[]): Record<FaultKind, number> {
  const counts: Record<FaultKind, number> = {
    'kill-worker': 0,
    restart: 0,
    replay: 0,
    scale: 0,
    'bad-input': 0,
    rebuild: 0,
    broker: 0,
    'rolling-restart': 0,
    'pause-broker': 0,
    network: 0,
    'clock-step': 0,
  };
  for (const event of events) counts[event.kind] += 1;
  return counts;
}
