import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import type { Admin, Kafka } from 'kafkajs';
import { setTimeout as delay } from 'node:timers/promises';
import { persist } from '../persist.js';
import type { BrokerTarget, FaultEvent } from '../schedule.js';
import { stackCommand } from '../stack-control.js';

export class ClusterFaultError extends TickertapeError {
  override readonly name = 'ClusterFaultError';
  constructor(detail: string) {
    super('FAULT_CLUSTER_FAILED', detail, { retriable: false });
  }
}

/** What the broker faults need: the cluster, the run's topic and the script that runs the stack. */
export interface ClusterControl {
  kafka: Kafka;
  topic: string;
  brokers: number;
  script: string;
  env: Record<string, string>;
  logger: Logger;
}

/** One thing done to one broker, for the report. */
export interface BrokerAction {
  action: 'kill' | 'restart' | 'pause';
  broker: number;
  /** Why that broker: the partitions' leader, the controller, or its turn in a rolling restart. */
  as: BrokerTarget | 'rolling';
  /** From the fault until every partition had all its replicas in sync again. */
  ms: number;
}

/** How long a cluster may take to have every replica back in sync after a fault. */
const REPLICATION_TIMEOUT_MS = 180_000;
/** How long a killed broker stays down before it starts again. */
const KILLED_FOR_MS = 3000;

async function withAdmin<T>(kafka: Kafka, use: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.disconnect();
  }
}

/** The broker leading the most partitions of the topic (the lowest id on a tie). */
export function busiestLeader(leaders: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const leader of leaders) counts.set(leader, (counts.get(leader) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  if (best === undefined) throw new ClusterFaultError('the topic has no partition with a leader');
  return best[0];
}

async function targetBroker(control: ClusterControl, target: BrokerTarget): Promise<number> {
  if (target === 'controller') {
    const { stdout } = await stackCommand(control.script, ['controller'], control.env);
    return Number(stdout.trim());
  }
  return persist(
    60_000,
    'finding the partitions leader',
    () =>
      withAdmin(control.kafka, async (admin) => {
        const { topics } = await admin.fetchTopicMetadata({ topics: [control.topic] });
        return busiestLeader(
          topics.flatMap((t) => t.partitions.map((p) => p.leader)).filter((id) => id >= 0),
        );
      }),
    control.logger,
  );
}

/** Resolves once every partition of every topic has all its replicas in sync. */
async function fullyReplicated(control: ClusterControl): Promise<void> {
  const deadline = Date.now() + REPLICATION_TIMEOUT_MS;
  for (;;) {
    const lagging = await withAdmin(control.kafka, async (admin) => {
      const { topics } = await admin.fetchTopicMetadata();
      return topics.flatMap((t) =>
        t.partitions
          .filter((p) => p.leader < 0 || p.isr.length < p.replicas.length)
          .map((p) => `${t.name}/${p.partitionId}`),
      );
    }).catch((err: unknown) => [`metadata: ${String(err)}`]);
    if (lagging.length === 0) return;
    if (Date.now() > deadline)
      throw new ClusterFaultError(
        `replicas still out of sync after the fault: ${lagging.join(', ')}`,
      );
    await delay(1000);
  }
}

async function stopAndStart(
  control: ClusterControl,
  action: 'kill' | 'restart',
  broker: number,
): Promise<void> {
  const part = `kafka-${broker}`;
  if (action === 'restart') {
    await stackCommand(control.script, ['restart', part], control.env);
    return;
  }
  await stackCommand(control.script, ['kill', part], control.env);
  await delay(KILLED_FOR_MS);
  await stackCommand(control.script, ['up', part], control.env);
}

/** A `broker` fault: its target found afresh each time, stopped and started, `times` in a row. */
export async function brokerFault(
  control: ClusterControl,
  event: Extract<FaultEvent, { kind: 'broker' }>,
): Promise<BrokerAction[]> {
  const done: BrokerAction[] = [];
  for (let i = 0; i < event.times; i += 1) {
    const broker = await targetBroker(control, event.target);
    const began = Date.now();
    control.logger.info({ broker, action: event.action, as: event.target }, 'broker fault');
    await stopAndStart(control, event.action, broker);
    await fullyReplicated(control);
    done.push({ action: event.action, broker, as: event.target, ms: Date.now() - began });
  }
  return done;
}

/** Every broker restarted cleanly in turn, the next once the previous one has caught up. */
export async function rollingRestart(control: ClusterControl): Promise<BrokerAction[]> {
  const done: BrokerAction[] = [];
  for (let broker = 1; broker <= control.brokers; broker += 1) {
    const began = Date.now();
    await stopAndStart(control, 'restart', broker);
    await fullyReplicated(control);
    done.push({ action: 'restart', broker, as: 'rolling', ms: Date.now() - began });
  }
  return done;
}

/** The target broker frozen with SIGSTOP for `pauseMs`, then continued. */
export async function pauseBroker(
  control: ClusterControl,
  event: Extract<FaultEvent, { kind: 'pause-broker' }>,
): Promise<BrokerAction> {
  const broker = await targetBroker(control, event.target);
  const { stdout } = await stackCommand(control.script, ['pid', `kafka-${broker}`], control.env);
  const pid = Number(stdout.trim());
  const began = Date.now();
  process.kill(pid, 'SIGSTOP');
  try {
    await delay(event.pauseMs);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  await fullyReplicated(control);
  return { action: 'pause', broker, as: event.target, ms: Date.now() - began };
}
