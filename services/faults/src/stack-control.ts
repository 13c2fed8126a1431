import { TickertapeError } from '@tickertape/errors';
import { spawn } from 'node:child_process';

export class StackControlError extends TickertapeError {
  override readonly name = 'StackControlError';
  constructor(command: string, detail: string) {
    super('FAULT_STACK_CONTROL_FAILED', `stack.sh ${command} failed: ${detail}`, {
      retriable: false,
    });
  }
}

/**
 * Runs `stack.sh <args…>` against the suite's stack (its `TT_*` settings in `env`), resolving
 * with its standard output and how long it took once it exits 0.
 */
export function stackCommand(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ ms: number; stdout: string }> {
  const began = Date.now();
  const command = args.join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (err) => reject(new StackControlError(command, err.message)));
    child.on('exit', (code) =>
      code === 0
        ? resolve({ ms: Date.now() - began, stdout })
        : reject(new StackControlError(command, `exit ${code}: ${stderr.slice(-1000)}`)),
    );
  });
}

/**
 * Stops one part of the local stack the way a deploy or a crash-and-restart does and starts it
 * again on the same data (`stack.sh restart <part>`), resolving once it answers again.
 */
export async function restartPart(
  script: string,
  part: string,
  env: Record<string, string>,
): Promise<number> {
  return (await stackCommand(script, ['restart', part], env)).ms;
}
