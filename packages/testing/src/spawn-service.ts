import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { waitFor } from './wait-for.js';
export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Children still running: killed when the test file ends, whatever its tests did. */
const running = new Set<ChildProcessWithoutNullStreams>();
const killRunning = (): void => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
};
// A test that timed out before stopping its service once left the child holding jest open:
// jest evaluates this module once per test file, so the hook ends that file's children.
const fileHook = (globalThis as { afterAll?: (fn: () => void) => void }).afterAll;
if (typeof fileHook === 'function') fileHook(killRunning);
process.once('exit', killRunning);

/**
 * A service's real entry point (`src/main.ts` of the package in `dir`) as its own process, from
 * source through the tsx loader, with exactly `env` plus PATH and HOME: signals and exit codes
 * are the service's own.
 */
export function spawnService(dir: string, env: Record<string, string>): ServiceProcess {
  return spawnNode(dir, ['--import', 'tsx', '--conditions=source', 'src/main.ts'], env);
}

/**
 * `node args…` in `dir` as its own process with exactly `env` plus PATH and HOME — e.g. a built
 * entry point (`services/api/dist/main.js`) as an image runs it.
 */
export function spawnNode(
  dir: string,
  args: readonly string[],
  env: Record<string, string>,
): ServiceProcess {
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/**
 * Waits until `GET url` answers 200 (a service's /health). A process that exits first fails the
 * wait at once, with its output, instead of after the timeout.
 */
export async function waitHealthy(
  service: ServiceProcess,
  url: string,
  timeoutMs = 60_000,
): Promise<void> {
  await waitFor(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`exited: ${service.output()}`);
      return (await fetch(url).catch(() => undefined))?.status === 200;
    },
    { description: `${url} to answer 200`, timeoutMs },
  );
}
