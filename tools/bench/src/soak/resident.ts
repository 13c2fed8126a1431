import { readdirSync, readFileSync, statSync } from 'node:fs';

/** A stack part's pid, from its pid file (infra/local/stack.sh writes run/<part>.pid). */
export function partPid(stackDir: string, part: string): number {
  return Number(readFileSync(`${stackDir}/run/${part}.pid`, 'utf8').trim());
}

/** Resident memory of a process, in bytes (VmRSS). */
export function residentBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!kb) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb[1]) * 1024;
}

/** Bytes of the regular files under a directory (the database's data). */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const name of readdirNames(dir)) {
    const stat = statSync(`${dir}/${name}`);
    total += stat.isDirectory() ? directoryBytes(`${dir}/${name}`) : stat.size;
  }
  return total;
}

function readdirNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Samples a process's resident memory every `everyMs` until stopped; keeps the peak. */
export class ResidentPeak {
  peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 500,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  sample(): number {
    const now = residentBytes(this.pid);
    this.peak = Math.max(this.peak, now);
    return now;
  }

  stop(): number {
    clearInterval(this.timer);
    return this.peak;
  }
}
