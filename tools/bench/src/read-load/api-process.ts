import { TickertapeError } from '@tickertape/errors';
import { serviceEntry } from '@tickertape/testing';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchEnv } from '../env.js';
import { clockTicksPerSecond, readProcStat } from '../proc-stat.js';
import { childProcessEnv } from '../worker-process.js';

/** The API's built entry point, through its package's exports map. */
const API = serviceEntry('@tickertape/api', 'dist', import.meta.url);

export const READ_TOKEN = 'read-load-bench-token-0123456789';

export interface ApiProcess {
  base: string;
  pid: number;
  /** CPU seconds the process has used so far (user + system, every thread). */
  cpuSeconds(): number;
  /** The text of its /metrics. */
  metrics(): Promise<string>;
  stop(): Promise<void>;
}

/** Design C's window behind HTTP (per-tick-api-main.ts), from this package's dist/. */
export const PER_TICK_API = fileURLToPath(new URL('../per-tick-api-main.js', import.meta.url));

/**
 * The API as production runs it — `node dist/main.js`, configured only through its environment
 * (`vars`: the cache settings of the mode measured) — on `port`, over `database`; or another
 * server of the same questions (`script`: design C's).
 */
export async function startApiProcess(
  env: BenchEnv,
  database: string,
  port: number,
  vars: Readonly<Record<string, string>>,
  script = API.file,
): Promise<ApiProcess> {
  if (!existsSync(script))
    throw new TickertapeError(
      'BENCH_API_NOT_BUILT',
      `${script} is missing: run pnpm exec turbo run build --filter=@tickertape/bench...`,
    );
  const child = spawn(process.execPath, [script], {
    cwd: API.dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...childProcessEnv(env),
      MONGODB_DATABASE: database,
      API_TOKENS: READ_TOKEN,
      HTTP_PORT: String(port),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...vars,
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new TickertapeError('BENCH_API_EXITED', `the API exited: ${stderr}`);
    const ok = await fetch(`${base}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline)
      throw new TickertapeError('BENCH_API_NOT_READY', `the API did not answer /health: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const hz = clockTicksPerSecond();
  const pid = child.pid!;
  return {
    base,
    pid,
    cpuSeconds() {
      const stat = readProcStat(pid);
      return (stat.utimeTicks + stat.stimeTicks) / hz;
    },
    metrics: async () => (await fetch(`${base}/metrics`)).text(),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
