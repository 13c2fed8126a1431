import { TickertapeError } from '@tickertape/errors';
import { spawn } from 'node:child_process';
import type { StackPart } from './schedule.js';

export class StackRestartError extends TickertapeError {
  override readonly name = 'StackRestartError';
  constructor(part: StackPart, detail: string) {
    super('FAULT_STACK_RESTART_FAILED', `restarting ${part} failed: ${detail}`, {
      retriable: false,
    });
  }
}

/**
 * Stops one part of the local stack the way a deploy or a crash-and-restart does and starts it
 * again on the same data (`stack.sh restart <part>`), resolving once it answers again.
 */
export function restartPart(
  script: string,
  part: StackPart,
  env: Record<string, string>,
): Promise<number> {
  const began = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, 'restart', part], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (err) => reject(new StackRestartError(part, err.message)));
    child.on('exit', (code) =>
      code === 0
        ? resolve(Date.now() - began)
        : reject(new StackRestartError(part, `exit ${code}: ${output.slice(-1000)}`)),
    );
  });
}
