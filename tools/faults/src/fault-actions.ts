import { rewindGroup } from '@tickertape/clients';
import type { Logger } from '@tickertape/logger';
import type { STORES } from '@tickertape/topology';
import type { Kafka } from 'kafkajs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  brokerFault,
  ClusterFaultError,
  pauseBroker,
  rollingRestart,
  type ClusterControl,
} from './cluster/broker-faults.js';
import { FakeClock } from './cluster/fake-clock.js';
import { proxiesOf, Toxiproxy } from './cluster/network-faults.js';
import type { FaultsEnv } from './env.js';
import type { Fleet } from './fleet.js';
import type { Injected } from './inject.js';
import { persist } from './persist.js';
import { cliEnv, groupOf, type Process, type RunNames } from './processes.js';
import { rebuildFinal, type RebuildRun } from './rebuild.js';
import type { FaultRunReport } from './report.js';
import type { FaultEvent, FaultProfile } from './schedule.js';
import { stackCommand } from './stack-control.js';

/** What a fault does to the running pipeline. */
export interface Faults {
  carryOut(event: FaultEvent, round: number): Promise<void>;
  restarts: FaultRunReport['restarts'];
  injected: Injected[];
  rebuilds: RebuildRun[];
  cluster: NonNullable<FaultRunReport['cluster']>;
}

/** The cluster profiles' means: the brokers, Toxiproxy and the stepped clock. */
export interface ClusterMeans {
  control: ClusterControl;
  toxiproxy: Toxiproxy;
  clock: FakeClock;
}

export function faults(
  env: FaultsEnv,
  run: RunNames,
  kafka: Kafka,
  fleet: Fleet<Process>,
  badInput: (round: number) => Promise<Injected[]>,
  means: ClusterMeans | undefined,
  logger: Logger,
): Faults {
  const restarts: FaultRunReport['restarts'] = [];
  const injected: Injected[] = [];
  const rebuilds: RebuildRun[] = [];
  const cluster: Faults['cluster'] = { brokers: [], network: [], clock: [] };
  const lanes = new Map<string, Promise<void>>();
  const needCluster = (kind: string): ClusterMeans => {
    if (means === undefined) throw new ClusterFaultError(`${kind} needs a cluster profile`);
    return means;
  };
  const rewind = (store: (typeof STORES)[number]) =>
    persist(
      60_000,
      `rewinding ${store} to offset 0`,
      async () => {
        const admin = kafka.admin();
        await admin.connect();
        try {
          await rewindGroup(admin, groupOf(run, store), run.topic);
        } finally {
          await admin.disconnect();
        }
      },
      logger,
    );
  return {
    restarts,
    injected,
    rebuilds,
    cluster,
    async carryOut(event, round) {
      switch (event.kind) {
        case 'kill-worker':
          return fleet.kill(event.store);
        case 'scale':
          return fleet.scale(event.store, event.replicas);
        case 'replay':
          return fleet.restartAll(event.store, () => rewind(event.store));
        case 'restart':
          restarts.push({
            part: event.part,
            ms: (await stackCommand(env.FAULT_STACK_SCRIPT, ['restart', event.part], env.inherited))
              .ms,
          });
          return;
        case 'rebuild':
          rebuilds.push(await rebuildFinal({ env: cliEnv(env), run, logger }, event));
          return;
        case 'bad-input':
          injected.push(
            ...(await persist(60_000, 'injecting bad input', () => badInput(round), logger)),
          );
          return;
        case 'broker':
          cluster.brokers.push(...(await brokerFault(needCluster(event.kind).control, event)));
          return;
        case 'rolling-restart':
          cluster.brokers.push(...(await rollingRestart(needCluster(event.kind).control)));
          return;
        case 'pause-broker':
          cluster.brokers.push(await pauseBroker(needCluster(event.kind).control, event));
          return;
        case 'network': {
          const { toxiproxy, control } = needCluster(event.kind);
          // One fault at a time per part: a late heal must not overlap the next toxic.
          const previous = lanes.get(event.target) ?? Promise.resolve();
          const mine = previous.then(async () => {
            const healed = await toxiproxy.inflict(
              event.toxic,
              proxiesOf(event.target, control.brokers),
              event.forMs,
            );
            cluster.network.push({
              target: event.target,
              toxic: event.toxic,
              ms: event.forMs,
              healed,
            });
          });
          lanes.set(
            event.target,
            mine.catch(() => undefined),
          );
          return mine;
        }
        case 'clock-step': {
          const offsetMs = await needCluster(event.kind).clock.step(event.stepMs);
          cluster.clock.push({ store: event.store, stepMs: event.stepMs, offsetMs });
          return;
        }
      }
    },
  };
}

/**
 * For a cluster profile: control of the brokers through the stack script, Toxiproxy, and the
 * fake clock of the stores whose clock the profile steps (one file per run).
 */
export async function clusterMeans(
  env: FaultsEnv,
  kafka: Kafka,
  topic: string,
  profile: FaultProfile,
  logger: Logger,
): Promise<
  (ClusterMeans & { clockedStores: Set<Process>; clockEnv: Record<string, string> }) | undefined
> {
  if (profile.stack !== 'cluster' || env.TOXIPROXY_URL === undefined) return undefined;
  if (env.FAULT_FAKETIME_LIB === undefined)
    throw new ClusterFaultError('FAULT_FAKETIME_LIB is not set');
  await mkdir(env.FAULT_OUT_DIR, { recursive: true });
  const clock = await FakeClock.create(join(env.FAULT_OUT_DIR, `${topic}-clock`));
  return {
    control: {
      kafka,
      topic,
      brokers: env.TT_KAFKA_BROKERS,
      script: env.FAULT_STACK_SCRIPT,
      env: env.inherited,
      logger,
    },
    toxiproxy: new Toxiproxy(env.TOXIPROXY_URL, async () => {
      logger.warn('toxiproxy did not take a toxic off: restarting it');
      await stackCommand(env.FAULT_STACK_SCRIPT, ['restart', 'toxiproxy'], env.inherited);
    }),
    clock,
    clockedStores: new Set(
      profile.events.flatMap((event) => (event.kind === 'clock-step' ? [event.store] : [])),
    ),
    clockEnv: clock.env(env.FAULT_FAKETIME_LIB),
  };
}
