import {
  NO_PROGRESS,
  positionGroup,
  type GroupStart,
  type Progress,
  type StartProgress,
} from '@tickertape/clients';
import { TickertapeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { groupIdOf, type Store } from '@tickertape/topology';
import type { Admin } from 'kafkajs';
import { openKafka } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { formatTable } from '../../table.js';

export interface ReplayOptions {
  store: Store;
  group?: string;
  topic: string;
  /** Where the group starts: the first record (a replay), the end, or a time. */
  from: GroupStart;
  /** How long to wait for the group's members to leave (a crashed worker's session to expire); 0: not at all. */
  waitMs?: number;
  /** Shows the wait for the group to empty (none when absent). */
  startProgress?: StartProgress;
}

export interface ReplayResult {
  from: GroupStart;
  groupId: string;
  topic: string;
  partitions: { partition: number; offset: string }[];
}

export class GroupRunningError extends TickertapeError {
  override readonly name = 'GroupRunningError';
  constructor(groupId: string, members: number, waitedMs: number) {
    const waited = waitedMs > 0 ? ` after waiting ${waitedMs / 1000} s` : '';
    super(
      'GROUP_HAS_MEMBERS',
      `${groupId} has ${members} member${members === 1 ? '' : 's'}${waited}: stop every worker of it first, then replay. ` +
        "A worker that crashed stays a member until its session times out (the workers' KAFKA_SESSION_TIMEOUT_MS, 30 s by default): --wait 45s waits for the group to empty",
      { retriable: false },
    );
  }
}

/**
 * The group's members once it has none, or `waitMs` has passed: polled every second, the wait
 * shown in seconds (a crashed worker's session can take its whole timeout to expire).
 */
async function membersAfter(
  admin: Admin,
  groupId: string,
  waitMs: number,
  startProgress: StartProgress,
): Promise<number> {
  const started = Date.now();
  const deadline = started + waitMs;
  let progress: Progress | undefined;
  try {
    for (;;) {
      const { groups } = await admin.describeGroups([groupId]);
      const members = groups[0]?.members.length ?? 0;
      if (members === 0 || Date.now() >= deadline) return members;
      progress ??= startProgress({
        total: Math.ceil(waitMs / 1000),
        unit: 's',
        label: `replay: waiting for ${groupId} to empty`,
      });
      progress.update(Math.floor((Date.now() - started) / 1000));
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, deadline - Date.now())));
    }
  } finally {
    progress?.stop();
  }
}

export const REPLAY_HELP = `
Rebuilds a level (or the segment store) from the topic: with every worker of its consumer group
stopped, moves the group back to the first record still in each partition, and reads the
offsets back to be sure. Start the workers again and they re-read the topic; the guard in each
bucket skips what it has already absorbed, so nothing is counted twice (docs/exactly-once.md).
The workers judge lateness against each record's own timestamp, so a replay reaches the same
verdicts and dead letters as the first run, however long after it runs. To recompute a level
over a range instead (a dropped partition, a level enabled later), see \`tickertape rebuild\`.

--from latest (or an ISO time) moves the group to the end of the topic (or to the first record
appended at or after that time) instead: how a level enabled later starts its live workers at
the present while \`tickertape rebuild\` fills its past (docs/history.md).
`;

export async function replayCommand(
  env: CliEnv,
  options: ReplayOptions,
  logger: Logger,
): Promise<ReplayResult> {
  const kafka = await openKafka(env, logger, 'tickertape-replay', { registry: false });
  const groupId = options.group ?? groupIdOf(options.store);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const waitMs = options.waitMs ?? 0;
    const members = await membersAfter(
      admin,
      groupId,
      waitMs,
      options.startProgress ?? NO_PROGRESS,
    );
    if (members > 0) throw new GroupRunningError(groupId, members, waitMs);
    await positionGroup(admin, groupId, options.topic, options.from);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [options.topic] });
    return {
      from: options.from,
      groupId,
      topic: options.topic,
      partitions: (committed?.partitions ?? [])
        .map(({ partition, offset }) => ({ partition, offset }))
        .sort((a, b) => a.partition - b.partition),
    };
  } finally {
    await admin.disconnect();
  }
}

function describeStart(from: GroupStart): string {
  if (from === 'earliest') return 'rewound to the first record';
  if (from === 'latest') return 'moved to the end';
  return `moved to the first record appended at or after ${new Date(from).toISOString()}`;
}

export function formatReplay(result: ReplayResult): string {
  return [
    `${result.groupId} ${describeStart(result.from)} of ${result.topic}; start its workers to read from there\n`,
    formatTable(
      ['partition', 'next offset'],
      result.partitions.map((p) => [p.partition, p.offset]),
    ),
  ].join('');
}
