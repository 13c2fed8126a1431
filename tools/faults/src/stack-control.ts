import { TickertapeError } from '@tickertape/errors';
import { runProcess } from '@tickertape/testing';

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
 * with its standard output and how long it took once it exits 0. `stack.sh restart <part>` stops
 * a part the way a deploy or a crash-and-restart does and starts it again on the same data,
 * resolving once it answers again.
 */
export async function stackCommand(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ ms: number; stdout: string }> {
  const began = Date.now();
  const command = args.join(' ');
  const run = await runProcess('bash', [script, ...args], { env }).catch((err: Error) => {
    throw new StackControlError(command, err.message);
  });
  if (run.code !== 0)
    throw new StackControlError(command, `exit ${run.code}: ${run.stderr.slice(-1000)}`);
  return { ms: Date.now() - began, stdout: run.stdout };
}
