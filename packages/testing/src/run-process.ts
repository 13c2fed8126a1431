import { spawn } from 'node:child_process';

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end with exactly `env` (nothing of the test's environment leaks in),
 * `stdin` written and closed, and returns its exit code and both outputs — read after the
 * streams closed, so nothing written last is missed.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; stdin?: string },
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    const run: ProcessRun = { code: null, stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ...run, code }));
    // A command that exits without reading its input (helm, promtool) closes the pipe first:
    // that EPIPE is not the command's failure, its exit code says how it went.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}
