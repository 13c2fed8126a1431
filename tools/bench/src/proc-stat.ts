import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** What /proc/<pid>/stat says about a process's CPU, in clock ticks. */
export interface ProcStat {
  utimeTicks: number;
  stimeTicks: number;
  /** Clock ticks after boot at which the process started: a reused pid has another. */
  startTicks: number;
}

/**
 * Parses /proc/<pid>/stat (proc(5)). The command name (field 2) is in parentheses and may hold
 * spaces or parentheses itself, so the fields are counted from the last `)`: field 3 (state)
 * comes first, utime is field 14, stime 15, starttime 22. Both times cover every thread.
 */
export function parseProcStat(text: string): ProcStat {
  const rest = text
    .slice(text.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const field = (n: number) => {
    const value = Number(rest[n - 3]);
    if (!Number.isSafeInteger(value)) throw new RangeError(`/proc stat field ${n} is not a count`);
    return value;
  };
  return { utimeTicks: field(14), stimeTicks: field(15), startTicks: field(22) };
}

/** The socket inodes listening on `port` in a /proc/net/tcp or tcp6 table (state 0A). */
export function listeningInodes(table: string, port: number): Set<string> {
  const inodes = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    const local = cols[1];
    const inode = cols[9];
    if (local === undefined || inode === undefined || cols[3] !== '0A') continue;
    if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(inode);
  }
  return inodes;
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux almost always). */
export function clockTicksPerSecond(): number {
  const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`getconf CLK_TCK answered ${value}`);
  }
  return value;
}

export function readProcStat(pid: number): ProcStat {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * Whether process `pid` holds a socket listening on `port`: the process a pid file names is the
 * one behind the address only if so (a stack on other ports, or a pid file left by a stopped
 * stack whose pid was reused, fails this).
 */
export function listensOn(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const inode of listeningInodes(text, port)) inodes.add(inode);
  }
  if (inodes.size === 0) return false;
  const dir = `/proc/${pid}/fd`;
  for (const fd of readdirSync(dir)) {
    let target: string;
    try {
      target = readlinkSync(`${dir}/${fd}`);
    } catch {
      // Closed between the listing and the read.
      continue;
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined && inodes.has(inode)) return true;
  }
  return false;
}

/** The machine's CPU time in clock ticks, all cores: busy (not idle nor iowait) and in all. */
export interface MachineTicks {
  busy: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal …. */
export function parseMachineTicks(text: string): MachineTicks {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) throw new RangeError('/proc/stat has no aggregate cpu line');
  // guest and guest_nice (fields 9, 10) are already counted in user and nice.
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const busy = [user, nice, system, irq, softirq, steal].reduce<number>((s, v) => s + (v ?? 0), 0);
  return { busy, total: busy + (idle ?? 0) + (iowait ?? 0) };
}

export function readMachineTicks(): MachineTicks {
  return parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
}
