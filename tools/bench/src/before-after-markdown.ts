import { MODEL_LEVELS } from '@tickertape/capacity';
import type { BenchReport } from './bench-report.js';
import { design } from './report.js';

const num = (value: number, digits: number) => value.toFixed(digits);

/** CPU seconds per million ticks of one of B's levels in this run. */
function levelCpu(report: BenchReport, level: string): number | undefined {
  const run = design(report, 'B').levels?.find((l) => l.level === level);
  return run === undefined ? undefined : (run.cpuSeconds * 1e6) / design(report, 'B').ticks;
}

/**
 * Issue 15's before/after: fixed figures of earlier measurements (each with its date and how it
 * was taken), beside this run's. They are records, not this run's measurements.
 */
export function beforeAfterSection(report: BenchReport): string[] {
  const a = design(report, 'A');
  const aCpu = (a.cpuSeconds * 1e6) / a.ticks;
  const [minute, hour] = MODEL_LEVELS.map((level) => levelCpu(report, level));
  const now = (value: number | undefined) => (value === undefined ? '—' : num(value, 1));
  const ratio = (value: number | undefined) =>
    value === undefined ? '—' : `${num(value / aCpu, 2)} × A`;
  return [
    '## Before/after: compact minute buckets and a cheaper worker (issue 15)',
    '',
    '| CPU s per million ticks | published run of 2026-11-21T11:41Z (same profile and machine) | this run |',
    '| --- | ---: | ---: |',
    `| A (no-op) | 8.9 | ${num(aCpu, 1)} |`,
    `| B · minute worker | 21.6 (2.43 × A) | ${now(minute)} (${ratio(minute)}) |`,
    `| B · hour worker | 11.3 (1.27 × A) | ${now(hour)} (${ratio(hour)}) |`,
    '',
    'Between the two runs, in order:',
    '',
    '- **Compact minute layout** (docs/data-layout.md): a plain sum per second and field plus one tick count per second and field set, instead of a `{t, o, v}` mark per second and field. Stored bytes per tick of the benchmark tick set: 81.8 (minute 72.6) in the published run; this run in the tables above, and by density in "Stored bytes per tick by density". A profile of the minute worker on the same 351,000 ticks sampled 42 µs per tick with the old layout (3a95943) and 25 µs with the new one, mostly less BSON and GC.',
    '- **Fold without allocations per tick**: totals and first/last kept as scalars, deltas found through nested maps instead of a string key per tick, update paths from precomputed indexes. Fold + update building + BSON of this tick set, in process, minute level: 5.5–5.8 → 4.15–4.3 CPU s per million ticks (3 runs each, 2026-11-23).',
    '- **Decode path**: series keys from a bounded exact cache (2.99 → 0.39 µs per tick), one `await` per schema instead of per message, validation without per-tick arrays. Measured 2026-11-23 on 351,000 ticks of this tick set, one worker from `dist/` per run, CPU from group join to the commit of the end offsets, 3 alternating pairs: minute 27.65 / 25.80 / 27.92 → 23.18 / 23.46 / 21.67, hour 22.43 / 24.41 / 25.62 → 17.16 / 18.90 / 16.69, A 14.10 / 15.14 / 13.76 → 11.92 / 13.20 / 11.34 (the codec change makes A cheaper too).',
    '- **kafkajs idle timer** (patches/kafkajs@2.2.4.patch, kafkajs#1556): an idle connection no longer re-arms a timer of at most 1 ms; an idle worker used 38 ms of CPU per second before and 15 after.',
    '',
  ];
}
