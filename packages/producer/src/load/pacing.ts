/*
 * Rate control as pure arithmetic: tick i of a run (0-based) is due `i / rate` seconds after the
 * start. The runner compares the count generated with the count due, so it catches up after a
 * stall instead of drifting, and a run always sends exactly `totalTicks`.
 */

/** Ticks in a run of `durationMs` at `ratePerSec`. */
export function totalTicks(ratePerSec: number, durationMs: number): number {
  return Math.round((ratePerSec * durationMs) / 1000);
}

/** How many ticks should have been generated `elapsedMs` into the run (tick 0 is due at once). */
export function ticksDue(ratePerSec: number, elapsedMs: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor((ratePerSec * elapsedMs) / 1000) + 1);
}

/** Milliseconds from `elapsedMs` until tick number `generated` is due; 0 when it already is. */
export function msUntilDue(ratePerSec: number, generated: number, elapsedMs: number): number {
  return Math.max(0, Math.ceil((generated * 1000) / ratePerSec - elapsedMs));
}

/** Ticks per second over a run; 0 for an empty or instant run. */
export function achievedRate(ticks: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (ticks * 1000) / elapsedMs : 0;
}
