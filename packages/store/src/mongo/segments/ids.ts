/**
 * Ranges of segment ids (`<series>:<day>:<partition>:<offset>`, segment-shape.ts) as the driver's
 * `_id` bounds: ':' is escaped inside series keys, so each range is exact.
 */
export interface IdRange {
  $gte: string;
  $lt: string;
}

/** One series' segment ids. */
export function seriesIdRange(series: string): IdRange {
  return { $gte: `${series}:`, $lt: `${series};` };
}

/** One series' segment ids in one day's collection. */
export function seriesDayIdRange(series: string, day: string): IdRange {
  return { $gte: `${series}:${day}:`, $lt: `${series}:${day};` };
}

/** The ids of one chain (series and partition) in one day, in offset order. */
export function chainIdRange(series: string, day: string, partition: number): IdRange {
  const prefix = `${series}:${day}:${String(partition).padStart(3, '0')}`;
  return { $gte: `${prefix}:`, $lt: `${prefix};` };
}
