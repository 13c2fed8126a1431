import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * A service's real entry point (`src/main.ts` of the package in `dir`) as its own process, from
 * source through the tsx loader, with exactly `env` plus PATH and HOME: signals and exit codes
 * are the service's own.
 */
export function spawnService(dir: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', 'src/main.ts'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}
