import { TickertapeError } from '@tickertape/errors';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { BenchEnv } from '../env.js';
import { childProcessEnv, type WorkerMode } from '../workers.js';

/** tools/bench, from src/ or dist/ alike. */
const BENCH_DIR = fileURLToPath(new URL('../../', import.meta.url));

const loadgenRunSchema = z.object({
  series: z.number().int().positive(),
  /** Ticks per second over all series. */
  rate: z.number().positive(),
  durationMs: z.number().int().positive(),
  topic: z.string().min(1),
  seed: z.number().int(),
});

export type LoadgenRun = z.output<typeof loadgenRunSchema>;

/** producer-main.ts's argument. */
export function parseLoadgenRun(text: string): LoadgenRun {
  return loadgenRunSchema.parse(JSON.parse(text));
}

/**
 * The producer of a live cell as its own process (live/producer-main.ts), so its CPU is
 * neither the workers' nor the in-process designs'. Resolves when it has sent and flushed
 * everything; fails with its output if it exits otherwise.
 */
export async function runLoadgen(env: BenchEnv, mode: WorkerMode, run: LoadgenRun): Promise<void> {
  const script =
    mode === 'dist'
      ? ['dist/live/producer-main.js']
      : ['--import', 'tsx', '--conditions=source', 'src/live/producer-main.ts'];
  const child = spawn(process.execPath, [...script, JSON.stringify(run)], {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...childProcessEnv(env), TT_STACK_DIR: env.TT_STACK_DIR, LOG_LEVEL: 'warn' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) {
    throw new TickertapeError(
      'BENCH_PRODUCER_FAILED',
      `the live producer exited with ${code}:\n${output.slice(-2000)}`,
    );
  }
}
