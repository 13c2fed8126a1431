import { markdownTable } from '@tickertape/answers';
import { fmt, MODEL_LEVELS } from '@tickertape/capacity';
import { boundSentence, designCpu, type ProcessCpu } from './process-cpu.js';
import type { BenchReport } from './bench-report.js';
import { STACK_PARTS, STACK_PART_NAMES } from './stack-cpu.js';

const NOT_MEASURED = 'not measured';

/** CPU seconds per million ticks, "not measured", or — where the process has no part in the design. */
function cell(cpu: ProcessCpu | undefined, ticks: number): string {
  if (cpu === undefined) return '—';
  return 'seconds' in cpu ? fmt.fixed((cpu.seconds * 1e6) / ticks, 1) : NOT_MEASURED;
}

/** The section "CPU per million ticks by process" of docs/benchmarks.md, as Markdown lines. */
export function processCpuSection(report: BenchReport): string[] {
  const cpus = report.designs.map(designCpu);
  if (cpus.every((c) => c.stack === undefined)) return [];
  const reasons = new Map<string, string>();
  const rows = cpus.map((cpu) => {
    const run = report.designs.find((d) => d.key === cpu.key)!;
    const worker = (level: string) => cpu.workers.find((w) => w.level === level)?.cpu;
    const named = [
      cpu.harness,
      ...MODEL_LEVELS.map((level) => worker(level)),
      ...STACK_PARTS.map((part) => cpu.stack?.[part]),
    ];
    for (const part of STACK_PARTS) {
      const c = cpu.stack?.[part];
      if (c !== undefined && 'notMeasured' in c) reasons.set(STACK_PART_NAMES[part], c.notMeasured);
    }
    const measured = named.flatMap((c) => (c !== undefined && 'seconds' in c ? [c.seconds] : []));
    const complete = named.every((c) => c === undefined || 'seconds' in c);
    const total = measured.reduce((sum, s) => sum + s, 0);
    return [
      `**${cpu.key}**`,
      ...named.map((c) => cell(c, cpu.ticks)),
      `${fmt.fixed((total * 1e6) / cpu.ticks, 1)}${complete ? '' : ' (part)'}`,
      run.machineBusy === undefined ? '—' : `${Math.round(run.machineBusy * 100)} %`,
    ];
  });
  const hz = report.stack?.clockTicksPerSecond;
  return [
    '## CPU per million ticks by process',
    '',
    ...markdownTable(
      [
        { head: '' },
        { head: 'harness', right: true },
        { head: 'minute worker', right: true },
        { head: 'hour worker', right: true },
        ...STACK_PARTS.map((part) => ({ head: STACK_PART_NAMES[part], right: true })),
        { head: 'all measured', right: true },
        { head: 'machine busy', right: true },
      ],
      rows,
    ),
    '',
    boundSentence(report),
    '',
    "CPU seconds per million ticks over each design's measured run (the same window as its ticks/s). " +
      "**harness**: this process's `process.cpuUsage()`, for the designs it runs itself (A, C, D, E). " +
      "**Workers**: each level's `process_cpu_seconds_total`. " +
      `**${STACK_PARTS.map((p) => STACK_PART_NAMES[p]).join(', ')}**: utime + stime of the local stack's processes from \`/proc/<pid>/stat\`${hz === undefined ? '' : ` (${hz} clock ticks per second)`}, every thread, at the start and the end of the run; the pids come from \`$TT_STACK_DIR/run/<part>.pid\` (infra/local/stack.sh) and count only if that process listens on the address the harness uses. ` +
      "**machine busy**: the share of all cores busy over the run (`/proc/stat`), anyone's processes: the machine is shared. " +
      "The stack's processes serve whoever uses them: another client's work during a run (tests beside the benchmark) counts in that run's row.",
    ...(reasons.size === 0
      ? []
      : ['', `Not measured: ${[...reasons].map(([name, why]) => `${name}: ${why}`).join('; ')}.`]),
  ];
}
