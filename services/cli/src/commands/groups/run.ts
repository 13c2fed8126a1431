import { groupStatus, otherGroupsOnTopic, type GroupStatus } from '@tickertape/clients';
import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { groupIdOf, type Store } from '@tickertape/topology';
import type { Admin } from 'kafkajs';
import { openKafka } from '../../connect.js';
import { requireStack, type CliEnv } from '../../env.js';
import { producerClocksProblem } from '../../producer-clocks.js';
import { judgeGroup, type GroupJudgement } from './judgement.js';

export interface GroupsCommandOptions {
  topic: string;
  stores: Store[];
  /** Consumer group per store where it is not the workers' default. */
  groups: Partial<Record<Store, string>>;
  /** Fail (exit 1) when a store is further behind than this. */
  maxLagSeconds?: number;
  /** Time between the two samples rates are measured over; 0 takes one sample. */
  intervalMs: number;
}

export interface StoreGroups extends GroupJudgement {
  store: Store;
  status: GroupStatus;
}

export interface GroupsReport {
  topic: string;
  stores: StoreGroups[];
  /** Groups with offsets on the topic that belong to no checked store. */
  otherGroups: string[];
  /** The topic's timestamp type is not LogAppendTime: lag in seconds is then the producers'. */
  clocksProblem?: string;
  ok: boolean;
}

export const GROUPS_HELP = `
For the consumer group of every level and the segment store (the workers' defaults, or --group):
its state, members (client id, host, partitions held), committed and end offset per partition,
lag in records and in seconds — the age of the oldest record not consumed yet, from its broker
timestamp, so it is right while every member is down — and hints: idle members (more members
than partitions), lag growing (two samples --interval apart), partitions no member holds.
Groups with offsets on the topic that belong to no checked store are listed too: a retired
level or a tool's leftover.

Exit status 1 when a store has no member or is behind by more than --max-lag-seconds, so it
serves as a probe:  tickertape groups --max-lag-seconds 120 --interval 0 >/dev/null
`;

/** The topic asked about is not on the brokers: said once, instead of Kafka's retries. */
export class TopicMissingError extends TickertapeError {
  override readonly name = 'TopicMissingError';
  constructor(topic: string, brokers: readonly string[]) {
    super(
      'TOPIC_MISSING',
      `topic ${topic} does not exist on ${brokers.join(',')}: pass the workers' --topic, or create it with tickertape topics create`,
      { retriable: false },
    );
  }
}

async function sample(
  admin: Admin,
  topic: string,
  targets: readonly { store: Store; groupId: string }[],
): Promise<GroupStatus[]> {
  return Promise.all(targets.map(({ groupId }) => groupStatus(admin, groupId, topic)));
}

export async function groupsCommand(
  env: CliEnv,
  options: GroupsCommandOptions,
  logger: Logger,
): Promise<GroupsReport> {
  const kafka = await openKafka(env, logger, 'tickertape-groups', { registry: false });
  const admin = kafka.admin();
  await admin.connect();
  try {
    // Asked of a topic that does not exist, Kafka answers every offset request with a retriable
    // error, and the admin client retries: check once, and say so in one line.
    if (!(await admin.listTopics()).includes(options.topic))
      throw new TopicMissingError(options.topic, requireStack(env, 'KAFKA_BROKERS').KAFKA_BROKERS);
    const targets = options.stores.map((store) => ({
      store,
      groupId: options.groups[store] ?? groupIdOf(store),
    }));
    const first = await sample(admin, options.topic, targets);
    let second: GroupStatus[] | null = null;
    if (options.intervalMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
      second = await sample(admin, options.topic, targets);
    }
    const stores = targets.map(({ store }, i): StoreGroups => {
      const status = second?.[i] ?? first[i]!;
      return {
        store,
        status,
        ...judgeGroup(first[i]!, second?.[i] ?? null, options.maxLagSeconds),
      };
    });
    const otherGroups = await otherGroupsOnTopic(
      admin,
      options.topic,
      new Set(targets.map((t) => t.groupId)),
    );
    const clocksProblem = await producerClocksProblem(admin, env, options.topic);
    return {
      topic: options.topic,
      stores,
      otherGroups,
      ...(clocksProblem === undefined ? {} : { clocksProblem }),
      ok: stores.every((s) => s.problems.length === 0),
    };
  } finally {
    await admin.disconnect();
  }
}
