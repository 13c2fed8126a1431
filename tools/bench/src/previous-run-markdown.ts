import type { BenchReport } from './bench-report.js';
import { iso, num, table } from './markdown-table.js';
import { figures } from './report.js';

/**
 * This run beside the run whose report it replaces (the docs/benchmarks.json that was there
 * before it was written): the same targets and ratios, so a change to the code shows as a
 * before/after without anyone copying figures by hand. The two runs are minutes or days apart on
 * a shared machine, so their absolute figures drift; the ratios inside each run are what compare.
 */
export function previousRunSection(report: BenchReport, previous: BenchReport): string[] {
  const now = figures(report);
  let before: ReturnType<typeof figures>;
  try {
    before = figures(previous);
  } catch {
    // A report written by an older harness may lack a design or a figure this one derives.
    return [];
  }
  const measuredBefore = new Map(before.targets.map((t) => [t.target, t]));
  const ratioBefore = new Map(before.ratios.map((r) => [r.name, r.value]));
  const verdict = (met: boolean | undefined) =>
    met === undefined ? '' : met ? ' (**met**)' : ' (**missed**)';
  return [
    '## Against the previous run',
    '',
    `The report this run replaced: run of ${iso(previous.startedAt)}, profile \`${previous.settings.profile}\`, on ${previous.machine.cores} cores. Between two runs the machine's load differs; compare the ratios, each taken inside one run.`,
    '',
    table(
      ['ratio', 'previous run', 'this run'],
      now.ratios.map((r) => {
        const was = ratioBefore.get(r.name);
        return [r.name, was === undefined ? '—' : num(was, 2), num(r.value, 2)];
      }),
      new Set([1, 2]),
    ),
    '',
    table(
      ['target', 'previous run', 'this run'],
      now.targets.map((t) => {
        const was = measuredBefore.get(t.target);
        return [
          t.target,
          was === undefined ? '—' : `${was.measured}${verdict(was.met)}`,
          `${t.measured}${verdict(t.met)}`,
        ];
      }),
    ),
    '',
  ];
}
