/**
 * Durations as the API accepts them in query strings: a pure function returning `undefined` for
 * anything it does not accept, so the schemas can report the parameter by name. Times are read
 * by @tickertape/query's parseTimeArgument, as the CLI reads them.
 */

const UNIT_MINUTES = { m: 1, h: 60, d: 1440 } as const;

/**
 * `10m`, `6h`, `7d` → whole minutes, for `last=` (windows are summed in whole minutes). At most
 * ten years: anything longer is a typo, and the reader's budget would refuse it anyway.
 */
export function parseLastMinutes(text: string): number | undefined {
  const match = /^(\d{1,7})([mhd])$/.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[1]) * UNIT_MINUTES[match[2] as keyof typeof UNIT_MINUTES];
  return minutes > 0 && minutes <= 10 * 366 * 1440 ? minutes : undefined;
}
