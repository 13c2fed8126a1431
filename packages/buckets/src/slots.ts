import { LEVEL_SPECS, type Level } from './levels.js';

/**
 * Slot arithmetic on epoch milliseconds (UTC). Every function is pure and integer-only; floor
 * division keeps instants before 1970 in the right slot too, though validation rejects them.
 */

/** `ms` rounded down to a multiple of `unit`. */
export function floorTo(ms: number, unit: number): number {
  return Math.floor(ms / unit) * unit;
}

/** `ms` rounded up to a multiple of `unit`. */
export function ceilTo(ms: number, unit: number): number {
  return Math.ceil(ms / unit) * unit;
}

/** Start of the slot of `level` that holds instant `ts` (slots start at the level's origin). */
export function slotStart(level: Level, ts: number): number {
  const { slotMs, originMs } = LEVEL_SPECS[level];
  return originMs + floorTo(ts - originMs, slotMs);
}

/** Index of `ts` inside its slot: the second of the minute, minute of the hour, hour of the day. */
export function subSlot(level: Level, ts: number): number {
  return Math.floor((ts - slotStart(level, ts)) / LEVEL_SPECS[level].subSlotMs);
}

/** End (exclusive) of the slot that starts at `start`. */
export function slotEnd(level: Level, start: number): number {
  return start + LEVEL_SPECS[level].slotMs;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `YYYYMMDDHHmm` of an instant, in UTC. */
export function stamp(ts: number): string {
  const d = new Date(ts);
  return (
    pad(d.getUTCFullYear(), 4) +
    pad(d.getUTCMonth() + 1, 2) +
    pad(d.getUTCDate(), 2) +
    pad(d.getUTCHours(), 2) +
    pad(d.getUTCMinutes(), 2)
  );
}

/** A bucket's `_id`: `<seriesKey>:<stamp>` — left-anchored prefix queries find a series' buckets in time order. */
export function bucketId(level: Level, seriesKey: string, start: number): string {
  return `${seriesKey}:${stamp(start).slice(0, LEVEL_SPECS[level].stampLength)}`;
}
