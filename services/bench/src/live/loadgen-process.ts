import { kafkaSecurityVars, registryAuthVars } from '@tickertape/config';
import { TickertapeError } from '@tickertape/errors';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchEnv } from '../env.js';
import type { WorkerMode } from '../workers.js';

/** services/cli, from src/ or dist/ of this package alike. */
const CLI_DIR = fileURLToPath(new URL('../../../cli/', import.meta.url));

export interface LoadgenRun {
  series: number;
  rate: number;
  durationMs: number;
  topic: string;
  seed: number;
}

/**
 * The producer of a live cell: `tickertape loadgen --profile traffic` as its own process, as a
 * user runs it, so its CPU is neither the workers' nor the in-process designs'. Traffic sensors
 * in round robin (every series `rate ÷ series` times a second), two numeric fields and a string
 * per tick, the wall clock as event time. Resolves when it has sent and flushed everything.
 */
export async function runLoadgen(env: BenchEnv, mode: WorkerMode, run: LoadgenRun): Promise<void> {
  const script =
    mode === 'dist' ? ['dist/main.js'] : ['--import', 'tsx', '--conditions=source', 'src/main.ts'];
  const args = [
    ...script,
    'loadgen',
    '--profile',
    'traffic',
    '--series',
    String(run.series),
    '--rate',
    String(run.rate),
    '--duration',
    `${run.durationMs}ms`,
    '--topic',
    run.topic,
    '--seed',
    String(run.seed),
    '--no-progress',
  ];
  const child = spawn(process.execPath, args, {
    cwd: CLI_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: env.PATH,
      HOME: env.HOME,
      KAFKA_BROKERS: env.KAFKA_BROKERS.join(','),
      ...kafkaSecurityVars(env),
      SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
      ...registryAuthVars(env),
      MONGODB_URI: env.MONGODB_URI,
      LOG_LEVEL: 'warn',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) {
    throw new TickertapeError(
      'BENCH_LOADGEN_FAILED',
      `tickertape loadgen exited with ${code}:\n${output.slice(-2000)}`,
    );
  }
}
