import type { LevelPolicy } from '@tickertape/buckets';

type WeightOf = (metric: string, field: string) => string | undefined;

/**
 * The field `field` of `metric` is weighted by, as the level policy says (`tickertape levels
 * --weight`), or undefined. A policy from before weights existed weights nothing.
 */
export function weightFieldOf(
  policy: LevelPolicy,
  metric: string,
  field: string,
): string | undefined {
  const weightOf = (policy as unknown as { weightOf?: WeightOf }).weightOf;
  return typeof weightOf === 'function' ? weightOf.call(policy, metric, field) : undefined;
}
