import type { FaultRunReport } from './report.js';

function table(headers: string[], rows: (string | number)[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    cells
      .map((cell, i) => String(cell).padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return (
    [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n'
  );
}

/** The run's summary for people: what was done to the pipeline, and what the checker found. */
export function formatFaultRun(report: FaultRunReport): string {
  const byKind = new Map<string, { injected: number; found: number; reason: string }>();
  for (const bad of report.badInputs) {
    const row = byKind.get(bad.kind) ?? { injected: 0, found: 0, reason: bad.reason };
    row.injected += 1;
    if (bad.deadLettered.includes(bad.reason)) row.found += 1;
    byKind.set(bad.kind, row);
  }
  return [
    `fault suite, profile ${report.profile} (seed ${report.seed}), ${Math.round(report.elapsedMs / 1000)} s, ` +
      `topic ${report.topic}, database ${report.database}\n\n`,
    `ticks: ${report.load.acknowledged} acknowledged of ${report.load.generated} generated ` +
      `(${report.load.failed} not acknowledged while the broker was away); ` +
      `${report.verify.tally.records} records in the topic, ${report.verify.tally.valid} valid\n\n`,
    table(
      ['fault', 'carried out'],
      [
        ['worker killed (SIGKILL) and restarted', report.faults['kill-worker']],
        [
          `stack part restarted (${report.restarts.map((r) => `${r.part} ${(r.ms / 1000).toFixed(1)} s`).join(', ') || 'none'})`,
          report.faults.restart,
        ],
        ['level replayed from offset 0', report.faults.replay],
        ['level rescaled (1 → 3 → 1 workers)', report.faults.scale],
        ['bad-input rounds', report.faults['bad-input']],
        [
          `level rebuilt under load (${report.rebuilds.map((r) => `${r.level} from ${r.source}, ${r.from.slice(11, 16)}–${r.to.slice(11, 16)}, ${(r.elapsedMs / 1000).toFixed(1)} s`).join('; ') || 'none'})`,
          report.faults.rebuild,
        ],
        ['worker exits not caused by the suite (restarted)', report.processes.unexpectedExits],
      ],
    ),
    '\n',
    table(
      ['bad input', 'reason', 'injected', 'in the DLQ with that reason'],
      [...byKind].map(([kind, row]) => [kind, row.reason, row.injected, row.found]),
    ),
    '\n',
    table(
      ['store', 'expected', 'stored', 'differences'],
      report.verify.stores.map((s) => [s.store, s.expected, s.stored, s.differences]),
    ),
    report.faultErrors.length > 0
      ? `\nfaults that failed:\n${report.faultErrors.join('\n')}\n`
      : '',
    report.verify.sample.length > 0
      ? `\nfirst differences:\n${report.verify.sample.map((d) => JSON.stringify(d)).join('\n')}\n`
      : '',
    `\ndifferences found: ${report.verify.differences}; ${report.passed ? 'PASSED' : 'FAILED'}\n`,
  ].join('');
}
