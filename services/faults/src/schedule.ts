import { STORES, type Store } from '@tickertape/topology';

/** Parts of the local stack the suite restarts (the registry is read once per worker start). */
export const STACK_PARTS = ['kafka', 'mongo', 'redis'] as const;
export type StackPart = (typeof STACK_PARTS)[number];

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
      level: 'minute' | 'hour' | 'day';
      source: 'topic' | 'minute' | 'hour';
    };

export type FaultKind = FaultEvent['kind'];

export interface FaultProfile {
  name: 'short' | 'long';
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
  };
  for (const event of events) counts[event.kind] += 1;
  return counts;
}
