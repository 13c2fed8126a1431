import type { Tick } from '@tickertape/tick';
import type { Readable } from 'node:stream';
import type { Store } from '@tickertape/topology';
import { readTickLines, type InputFormat } from '@tickertape/tick';
import { admitTick, pastRetention } from './time-rules.js';

const DAY = 86_400_000;

/** What a run applies to which lines: fixed once at its start, so every pass agrees. */
export interface BackfillRules {
  /** The stores asked for (--levels). */
  stores: readonly Store[];
  /** The run's clock, read once: the future bound and retention are judged against it. */
  nowMs: number;
  maxFutureMs: number;
  retentionMs: Readonly<Record<Store, number>>;
}

/** A tick for the stores that take it; `refused` are those whose retention it is past. */
export interface AdmittedLine {
  number: number;
  tick: Tick;
  accepted: readonly Store[];
  refused: readonly Store[];
}

/** A line no store takes: not a tick, or one a worker would dead-letter. */
export interface RejectedLine {
  number: number;
  error: unknown;
}

/** Splits the asked-for stores into those that take a tick at `ts` and those past retention. */
export function storesFor(
  ts: number,
  rules: BackfillRules,
): { accepted: Store[]; refused: Store[] } {
  const accepted: Store[] = [];
  const refused: Store[] = [];
  for (const store of rules.stores)
    (pastRetention(store, ts, rules.nowMs, rules.retentionMs[store]) ? refused : accepted).push(
      store,
    );
  return { accepted, refused };
}

/**
 * The input's lines as a backfill sees them: each either admitted (with the stores it goes to) or
 * rejected with the reason a worker would give. A pure function of the bytes and the rules, so
 * the planning pass and the writing pass see the same thing.
 */
export async function* backfillLines(
  input: Readable,
  format: InputFormat,
  rules: BackfillRules,
): AsyncGenerator<AdmittedLine | RejectedLine> {
  // Every collection a store writes starts and ends at a UTC midnight, so the verdicts are the
  // same for a whole day: worked out once per day, not per tick and store.
  const byDay = new Map<number, ReturnType<typeof storesFor>>();
  for await (const line of readTickLines(input, format)) {
    if ('error' in line) {
      yield line;
      continue;
    }
    let tick: Tick;
    try {
      tick = admitTick(line.tick, rules.nowMs, rules.maxFutureMs);
    } catch (error) {
      yield { number: line.number, error };
      continue;
    }
    const day = Math.floor(tick.ts / DAY);
    let stores = byDay.get(day);
    if (stores === undefined) byDay.set(day, (stores = storesFor(tick.ts, rules)));
    yield { number: line.number, tick, ...stores };
  }
}
