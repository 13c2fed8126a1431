import type { Logger } from '@tickertape/logger';
import {
  checkRebuildRange,
  rebuild,
  topicSources,
  type RebuildOptions,
  type RebuildPlan,
  type RebuildReport,
} from '@tickertape/history';
import { openKafka, openStores, tickCodecFor } from '../../connect.js';
import type { CliEnv } from '../../env.js';
import { startProgress } from '../../progress.js';

export const REBUILD_HELP = `
Recomputes a level over a range of final slots beside the live data and swaps it in: the buckets
are folded into shadow collections (from the topic with the workers' own decode, time verdict and
guarded writer; from the level below by rolling its buckets up), compared with their source by
the checker's comparison, and only with no difference put in place of the live ones — a whole
partition renamed into place on MongoDB, bucket by bucket otherwise. The live buckets it replaces
are kept in replaced_<run>_<partition> collections until \`tickertape rebuild --cleanup\`.

Refused, with nothing written: --from/--to not on the level's slot boundaries; any slot of the
range not final (its watermark) for the level, or for a source level; a topic that no longer
holds every record that may carry a tick of the range; a source level partition that is gone. A
run killed half-way is resumed by running the same command again. --dry-run prints the plan.
Exit status: 0 when swapped, 1 when the shadow differs from its source (nothing swapped), 2 when
refused.
`;

export interface RebuildIo {
  /** Where the progress bar (or, off a terminal, progress lines) goes. */
  progress?: NodeJS.WritableStream;
  now: () => number;
}

/** `tickertape rebuild`: the history engine's rebuild, on the env's database and topic. */
export async function rebuildCommand(
  env: CliEnv,
  options: RebuildOptions & { database: string },
  logger: Logger,
  io: RebuildIo,
): Promise<RebuildPlan | RebuildReport> {
  checkRebuildRange(options);
  const stores = await openStores(env, logger, 'tickertape-rebuild', options.database);
  try {
    const openTopic = async () => {
      const kafka = await openKafka(env, logger, 'tickertape-rebuild', { registry: true });
      return topicSources(kafka, await tickCodecFor(env, options.topic), options);
    };
    return await rebuild(stores.rollups, options, openTopic, logger, {
      now: io.now,
      startProgress: (run) =>
        startProgress({
          ...run,
          ...(io.progress === undefined ? {} : { stream: io.progress }),
          now: io.now,
        }),
    });
  } finally {
    await stores.close();
  }
}

/** `tickertape rebuild --cleanup`: drops the replaced collections and finished runs' shadows. */
export async function cleanupCommand(
  env: CliEnv,
  options: { database: string; dryRun: boolean },
  logger: Logger,
  now: () => number,
): Promise<string[]> {
  const stores = await openStores(env, logger, 'tickertape-rebuild', options.database);
  try {
    return await stores.rollups.cleanupReplaced({
      dryRun: options.dryRun,
      nowMs: now(),
    });
  } finally {
    await stores.close();
  }
}
