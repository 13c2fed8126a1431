import { QueryError, QueryErrorCode } from './query-error.js';

/**
 * A time zone's rules as the local-step math needs them: the offset in force at an instant and
 * the instants it changes. Read from the IANA database Node's ICU carries (Intl), never from a
 * table of our own: zones change rules every year and ICU is updated with Node.
 */
export interface ZoneRules {
  /** The zone's name as the query gave it. */
  readonly zone: string;
  /** Local wall time minus UTC at `ms`, in ms (Asia/Kolkata: +19,800,000). */
  offsetAt(ms: number): number;
  /** The offset changes in [fromMs, toMs), in time order. */
  transitions(fromMs: number, toMs: number): Transition[];
}

export interface Transition {
  /** First instant with the new offset. */
  atMs: number;
  before: number;
  after: number;
}

const SECOND = 1000;
/**
 * Offsets are sampled a day apart and each change is found by bisection: no zone since 1970
 * changed its offset twice within a day (the shortest spans, Morocco's Ramadan suspensions of
 * DST, last weeks).
 */
const SAMPLE_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name such as America/Los_Angeles, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone === '' || zone.length > 64) return false;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone, or a refusal naming the parameter (the API's 400, the CLI's exit 2). */
export function checkTimeZone(zone: string): string {
  if (!isTimeZone(zone))
    throw new QueryError(
      QueryErrorCode.InvalidTimeZone,
      `tz: unknown time zone ${JSON.stringify(zone.slice(0, 64))}; give an IANA zone such as America/Los_Angeles or Asia/Kolkata`,
    );
  return zone;
}

function offsetOf(formatter: Intl.DateTimeFormat, ms: number): number {
  const at = Math.floor(ms / SECOND) * SECOND;
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(at)) parts[part.type] = part.value;
  const year = Number(parts.year) * (parts.era === 'BC' ? -1 : 1);
  const wall = Date.UTC(
    year,
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - at;
}

/** The rules of a zone Intl knows; refuses an unknown one (see checkTimeZone). */
export function zoneRules(zone: string): ZoneRules {
  const formatter = formatterOf(checkTimeZone(zone));
  const offsetAt = (ms: number) => offsetOf(formatter, ms);
  return {
    zone,
    offsetAt,
    transitions(fromMs, toMs) {
      const found: Transition[] = [];
      let at = fromMs;
      let offset = offsetAt(at);
      while (at < toMs) {
        const next = Math.min(at + SAMPLE_MS, toMs);
        const nextOffset = offsetAt(next);
        if (nextOffset !== offset) {
          // Bisect on whole seconds: ICU's offsets change on a second.
          let lo = Math.floor(at / SECOND);
          let hi = Math.ceil(next / SECOND);
          while (hi - lo > 1) {
            const mid = Math.floor((lo + hi) / 2);
            if (offsetAt(mid * SECOND) === offset) lo = mid;
            else hi = mid;
          }
          const change = Math.max(hi * SECOND, fromMs);
          const after = offsetAt(change);
          if (change < toMs) found.push({ atMs: change, before: offset, after });
          offset = after;
          at = change;
          continue;
        }
        at = next;
        offset = nextOffset;
      }
      return found;
    },
  };
}

/** `2026-03-08T00:00:00.000-08:00`: the instant in the zone's wall time, with its offset. */
export function localIso(ms: number, offsetMs: number): string {
  const wall = new Date(ms + offsetMs).toISOString().slice(0, -1);
  const sign = offsetMs < 0 ? '-' : '+';
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${wall}${sign}${hh}:${mm}`;
}

/**
 * The instant the zone's clock reads `wallMs`. A time read twice (the hour a fall-back repeats)
 * is its first reading; a time never read (the hour a spring-forward skips) is read with the
 * offset before the jump, so it lands as far after the jump as it was past it — 02:30 in Los
 * Angeles on 8 March 2026 is 03:30 PDT — as Temporal's `compatible` disambiguation does.
 */
export function wallToInstant(wallMs: number, rules: Pick<ZoneRules, 'offsetAt'>): number {
  const DAY = 86_400_000;
  // Offsets a day apart on each side: no zone changed its offset twice within a day.
  const offsets = new Set([DAY, 0, -DAY].map((shift) => rules.offsetAt(wallMs - shift)));
  const readings = [...offsets]
    .map((offset) => wallMs - offset)
    .filter((t) => t + rules.offsetAt(t) === wallMs);
  if (readings.length > 0) return Math.min(...readings);
  return wallMs - rules.offsetAt(wallMs - DAY);
}
