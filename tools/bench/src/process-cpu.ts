import type { BenchReport, DesignRun } from './bench-report.js';
import { STACK_PARTS, STACK_PART_NAMES, type StackPart } from './stack-cpu.js';

/** One process's CPU over a design's run: seconds, or why there is no figure. */
export type ProcessCpu = { seconds: number } | { notMeasured: string };

/** A design's CPU by process: the harness (in-process designs), each worker, the stack's parts. */
export interface DesignCpu {
  key: DesignRun['key'];
  ticks: number;
  seconds: number;
  harness?: ProcessCpu;
  workers: { level: string; cpu: ProcessCpu }[];
  stack?: Record<StackPart, ProcessCpu>;
}

export function designCpu(run: DesignRun): DesignCpu {
  const stack = run.stackCpu;
  return {
    key: run.key,
    ticks: run.ticks,
    seconds: run.seconds,
    // The workers' CPU is theirs; the harness only polls their lag meanwhile.
    ...(run.levels === undefined ? { harness: { seconds: run.cpuSeconds } } : {}),
    workers: (run.levels ?? []).map((level) => ({
      level: level.level,
      cpu: { seconds: level.cpuSeconds },
    })),
    ...(stack === undefined
      ? {}
      : {
          stack: Object.fromEntries(
            STACK_PARTS.map((part) => {
              const cpu = stack[part];
              return [
                part,
                cpu.measured ? { seconds: cpu.cpuSeconds } : { notMeasured: cpu.reason },
              ];
            }),
          ) as Record<StackPart, ProcessCpu>,
        }),
  };
}

/** The named processes of a design's run, measured or not. */
export function processes(cpu: DesignCpu): { name: string; cpu: ProcessCpu }[] {
  return [
    ...(cpu.harness === undefined ? [] : [{ name: 'harness', cpu: cpu.harness }]),
    ...cpu.workers.map((w) => ({ name: `${w.level} worker`, cpu: w.cpu })),
    ...(cpu.stack === undefined
      ? []
      : STACK_PARTS.map((part) => ({ name: STACK_PART_NAMES[part], cpu: cpu.stack![part] }))),
  ];
}

/** Above this share of its capacity, a part (or the machine) counts as saturated. */
const SATURATED = 0.85;

const pct = (share: number) => `${Math.round(share * 100)} %`;
const perMillion = (seconds: number, ticks: number) => ((seconds * 1e6) / ticks).toFixed(1);

/**
 * One sentence, from the numbers alone, on which part bounds B on this machine: the machine when
 * its cores were saturated (by B's processes or by others sharing it), else a part busy for
 * nearly a whole core, else none (B waits on round trips between its parts).
 */
export function boundSentence(report: BenchReport): string {
  const b = report.designs.find((d) => d.key === 'B');
  if (b === undefined) return '';
  const cpu = designCpu(b);
  const all = processes(cpu);
  const measured = all.flatMap((p) =>
    'seconds' in p.cpu ? [{ name: p.name, seconds: p.cpu.seconds }] : [],
  );
  const unmeasured = all.filter((p) => !('seconds' in p.cpu)).map((p) => p.name);
  if (cpu.stack === undefined || unmeasured.length > 0) {
    const which = unmeasured.length > 0 ? unmeasured.join(', ') : "the stack's processes";
    return `Not every part of B was measured (${which}), so this run cannot say which part bounds B.`;
  }
  const top = [...measured].sort((x, y) => y.seconds - x.seconds)[0]!;
  const total = measured.reduce((sum, p) => sum + p.seconds, 0);
  const cores = report.machine.cores;
  const ours = total / (cores * b.seconds);
  const topShare = top.seconds / b.seconds;
  const machine = b.machineBusy;
  const opening =
    `During B's run (${b.seconds.toFixed(2)} s) its processes used ${total.toFixed(1)} CPU-seconds, ` +
    `${pct(ours)} of the machine's ${cores} cores${machine === undefined ? '' : ` (the machine was ${pct(machine)} busy in all)`}; ` +
    `the most, ${perMillion(top.seconds, b.ticks)} CPU s per million ticks (${pct(topShare)} of one core), went to the ${top.name}`;
  if (machine !== undefined && machine >= SATURATED && ours < machine / 2) {
    return `${opening}: other processes on the shared machine took most of its saturated cores, so this run's B is bound by the machine's load, not by a part of its own.`;
  }
  if (Math.max(ours, machine ?? 0) >= SATURATED) {
    return `${opening}: the cores were saturated, and the ${top.name}, their largest user, bounds B on this machine.`;
  }
  if (topShare >= SATURATED) {
    return `${opening}: it was busy nearly all the time, so the ${top.name} bounds B on this machine.`;
  }
  return `${opening}: no part was near a whole core and the machine was not saturated, so B is bound by the waits between its parts (round trips), not by any one part's CPU, on this machine.`;
}
