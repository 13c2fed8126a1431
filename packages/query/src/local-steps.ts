import { QueryError, QueryErrorCode } from './query-error.js';
import type { ZoneRules } from './time-zone.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One step of a local calendar as a UTC range [start, end): a local day may last 23 or 25 hours. */
export interface LocalStep {
  start: number;
  end: number;
}

/**
 * Whether `stepMs` has local steps: it divides a day (a second, 5 minutes, an hour, 6 hours…)
 * or is whole days (2 days, a week). Every native width and chart width is one.
 */
export function isLocalStep(stepMs: number): boolean {
  return Number.isSafeInteger(stepMs) && stepMs > 0 && (DAY % stepMs === 0 || stepMs % DAY === 0);
}

const floorDiv = (a: number, b: number) => Math.floor(a / b);

/**
 * The steps of `stepMs` in the zone's local calendar that intersect [fromMs, toMs), in time order.
 * A step boundary is every instant the zone's wall clock reads a multiple of the step (counted
 * from local midnight, or for whole days from 1970-01-01 local, as UTC steps count from the
 * epoch), and every instant a clock change jumps over one. So a local day runs from midnight to
 * midnight (23 or 25 hours across a DST change); an hour repeated by a fall-back is read twice,
 * as two steps; an hour skipped by a spring-forward is no step; a 30-minute shift (Lord Howe)
 * makes a 30-minute or 90-minute local hour. A step longer than a backward jump is not cut by it:
 * a multiple the clock reads again after jumping back (St. John's fell back at 00:01 until 2011,
 * so its midnight came twice) starts no second step, and that day lasts 25 hours. Pure and
 * integer: the zone's offsets come in `rules`.
 */
export function localSteps(
  fromMs: number,
  toMs: number,
  stepMs: number,
  rules: Pick<ZoneRules, 'offsetAt' | 'transitions'>,
): LocalStep[] {
  if (!isLocalStep(stepMs))
    throw new QueryError(
      QueryErrorCode.NoResolution,
      `a ${stepMs} ms step neither divides a day nor is whole days: it has no local steps`,
    );
  // A step is at most `stepMs` plus a clock's backward jump long: a boundary then lies on each
  // side of the range within this margin, widened for the rare zone that jumped back further.
  for (let margin = stepMs + 6 * HOUR; ; margin *= 2) {
    const sorted = boundariesIn(fromMs - margin, toMs + margin, stepMs, rules);
    if ((sorted[0]! <= fromMs && sorted[sorted.length - 1]! >= toMs) || margin > 64 * DAY)
      return stepsBetween(sorted, fromMs, toMs);
  }
}

function boundariesIn(
  scanFrom: number,
  scanTo: number,
  stepMs: number,
  rules: Pick<ZoneRules, 'offsetAt' | 'transitions'>,
): number[] {
  const boundaries: number[] = [];
  // `seenBelow`: after a backward jump shorter than the step, the wall times below it were read
  // before the jump; a multiple among them starts no second step.
  const intervals: { from: number; to: number; offset: number; seenBelow?: number }[] = [];
  let cursor = scanFrom;
  let offset = rules.offsetAt(scanFrom);
  let seenBelow: number | undefined;
  for (const change of rules.transitions(scanFrom, scanTo)) {
    intervals.push({ from: cursor, to: change.atMs, offset, ...(seenBelow && { seenBelow }) });
    const back = change.before - change.after;
    const longer = back > 0 && stepMs > back;
    // A jump over a multiple starts a step (spring forward past local midnight or a whole hour;
    // a fall-back into the previous hour), unless the step outlasts a backward jump.
    const before = floorDiv(change.atMs - 1 + change.before, stepMs);
    const after = floorDiv(change.atMs + change.after, stepMs);
    if (before !== after && !longer) boundaries.push(change.atMs);
    seenBelow = longer ? change.atMs + change.before : undefined;
    cursor = change.atMs;
    offset = change.after;
  }
  intervals.push({ from: cursor, to: scanTo, offset, ...(seenBelow && { seenBelow }) });
  for (const { from, to, offset: o, seenBelow: seen } of intervals) {
    // Instants t in [from, to) whose wall time t + o is a multiple of the step.
    for (let k = Math.ceil((from + o) / stepMs); k * stepMs - o < to; k++)
      if (seen === undefined || k * stepMs >= seen) boundaries.push(k * stepMs - o);
  }
  return [...new Set(boundaries)].sort((a, b) => a - b);
}

function stepsBetween(sorted: readonly number[], fromMs: number, toMs: number): LocalStep[] {
  const steps: LocalStep[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const start = sorted[i]!;
    const end = sorted[i + 1]!;
    if (end > fromMs && start < toMs) steps.push({ start, end });
  }
  return steps;
}

/** Whether the local steps are the UTC steps of the same width (LA's hours, Kolkata's 30 minutes). */
export function onUtcGrid(steps: readonly LocalStep[], stepMs: number): boolean {
  return steps.every((step) => step.start % stepMs === 0 && step.end - step.start === stepMs);
}

/** Runs of steps holding no point, clipped to [fromMs, toMs): a local range's gaps. */
export function stepGaps(
  steps: readonly LocalStep[],
  withData: ReadonlySet<number>,
  fromMs: number,
  toMs: number,
): { from: number; to: number }[] {
  const gaps: { from: number; to: number }[] = [];
  for (const step of steps) {
    if (withData.has(step.start)) continue;
    const from = Math.max(step.start, fromMs);
    const to = Math.min(step.end, toMs);
    if (from >= to) continue;
    const last = gaps[gaps.length - 1];
    if (last && last.to === from) last.to = to;
    else gaps.push({ from, to });
  }
  return gaps;
}
