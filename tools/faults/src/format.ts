import { acknowledgedKept, type FaultRunReport } from './report.js';

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

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

/** The cluster profiles' faults: brokers by what was done to them, network faults, clock steps. */
function clusterRows(report: FaultRunReport): (string | number)[][] {
  const cluster = report.cluster;
  if (cluster === undefined) return [];
  const brokers = (action: string, as: string) =>
    cluster.brokers.filter((b) => b.action === action && b.as === as);
  const described = (done: typeof cluster.brokers) =>
    done.map((b) => `${b.broker}: ${seconds(b.ms)}`).join(', ') || 'none';
  const rows: (string | number)[][] = [
    ['partitions leader SIGKILLed, started again', brokers('kill', 'leader')],
    ['partitions leader restarted (SIGTERM)', brokers('restart', 'leader')],
    ['controller SIGKILLed, started again', brokers('kill', 'controller')],
    ['controller restarted (SIGTERM)', brokers('restart', 'controller')],
    ['rolling restart, every broker', brokers('restart', 'rolling')],
    ['broker paused (SIGSTOP) past the session timeouts', brokers('pause', 'leader')],
  ].map(([what, done]) => [
    `${what as string} (broker: until in sync; ${described(done as typeof cluster.brokers)})`,
    (done as typeof cluster.brokers).length,
  ]);
  for (const fault of cluster.network)
    rows.push([
      `network: ${fault.toxic} to ${fault.target} for ${seconds(fault.ms)}${fault.healed === 'restart' ? ' (taken off by restarting Toxiproxy)' : ''}`,
      1,
    ]);
  for (const step of cluster.clock)
    rows.push([
      `clock of the ${step.store} workers stepped ${step.stepMs > 0 ? '+' : ''}${seconds(step.stepMs)} (now ${seconds(step.offsetMs)} off)`,
      1,
    ]);
  return rows;
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
    `fault suite, profile ${report.profile} (seed ${report.seed}${report.sketches ? ', sketches on' : ''}), ${Math.round(report.elapsedMs / 1000)} s, ` +
      `topic ${report.topic}, database ${report.database}\n\n`,
    `ticks: ${report.load.acknowledged} acknowledged of ${report.load.generated} generated ` +
      `(${report.load.failed} not acknowledged while the broker was away); ` +
      `${report.verify.tally.records} records in the topic, ${report.verify.tally.valid} valid; ` +
      `every acknowledged tick in the topic: ${acknowledgedKept(report) ? 'yes' : 'NO'}\n\n`,
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
        ...clusterRows(report),
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
