import { LEVELS } from '@tickertape/buckets';

/**
 * Where ticks end up, each filled by a consumer group of its own: a rollup level's buckets, or the
 * segment store of exact raw points. A worker's `ROLLUP_LEVEL`, the checker's and the CLI's
 * `--stores`, the fault suite's kills and the chart's deployments all name these.
 */
export const STORES = [...LEVELS, 'segments'] as const;
export type Store = (typeof STORES)[number];

export function isStore(text: string): text is Store {
  return (STORES as readonly string[]).includes(text);
}

/** What a rollup level's default consumer group starts with; the level's name follows. */
export const ROLLUP_GROUP_PREFIX = 'tickertape-rollup-';

/** The segment store's default consumer group. */
export const SEGMENT_GROUP = 'tickertape-segments';

/**
 * A store's default consumer group (the workers' `GROUP_ID` when unset), also the Kafka client id
 * and MongoDB app name operators see: each level and the segment store replay on their own.
 */
export function groupIdOf(store: Store): string {
  return store === 'segments' ? SEGMENT_GROUP : `${ROLLUP_GROUP_PREFIX}${store}`;
}
